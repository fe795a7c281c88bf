import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import type { OpencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import { isGroupAlive, isProcessAlive, listDescendantPids } from '../../../../src/agents/process/kill-process-tree.js'
import type { AdapterRequest } from '../../../../src/contract/adapter.js'
import type { AgentSnapshot } from '../../../../src/contract/agent-snapshot.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { startAnthropicServer } from '../../../support/anthropic-server.js'
import type { AnthropicServer } from '../../../support/anthropic-server.js'
import { makeOpencodeHome, OPENCODE_BIN } from '../../../support/opencode-cli.js'
import type { OpencodeHome } from '../../../support/opencode-cli.js'
import { BASH_MARKER, COMPLETE_TEXT, scriptFor, TAGS } from '../../opencode/opencode-scenarios.js'

/**
 * opencodeAdapter driving a server it starts itself (the real `opencode serve`, scripted model):
 * turns on one session, live dialog answers through `agentRunState.answerDialog`, abort, a model
 * failure, and `dispose()` ending the whole server tree. Every wait is bounded.
 */

let model: AnthropicServer
let home: OpencodeHome
let adapter: OpencodeAdapter

beforeAll(async () => {
  model = await startAnthropicServer({ turns: Array.from({ length: 100 }, () => scriptFor), sideText: 'Scripted title' })
  home = makeOpencodeHome({ modelUrl: model.url, permission: { bash: 'ask', question: 'allow' } })
  adapter = opencodeAdapter({ cwd: home.cwd, bin: OPENCODE_BIN, env: home.env, startTimeoutMs: 60_000, graceMs: 2000 })
})

afterAll(async () => {
  await adapter?.dispose()
  await model?.close()
  home?.cleanup()
})

const request = (text: string): AdapterRequest => ({ messages: [{ id: `u-${text}`, role: 'user', content: text, status: 'complete', createdAt: new Date(0) }] })

async function drain(iterator: AsyncIterator<StreamChunk>, onChunk?: (chunk: StreamChunk) => void, timeoutMs = 60_000): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined
    const step = await Promise.race([iterator.next(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('stream did not end in time')), Math.max(1, deadline - Date.now()))))])
    clearTimeout(timer)
    if (step.done) return chunks
    chunks.push(step.value)
    onChunk?.(step.value)
  }
}

/** Resolves with the first snapshot that satisfies `test` (checked on every change). */
function snapshotWhere(test: (snapshot: AgentSnapshot) => boolean): Promise<AgentSnapshot> {
  return new Promise((resolve) => {
    const check = (): void => {
      const snapshot = adapter.agentRunState.getSnapshot()
      if (snapshot && test(snapshot)) {
        unsubscribe()
        resolve(snapshot)
      }
    }
    const unsubscribe = adapter.agentRunState.subscribe(check)
    check()
  })
}

describe('opencodeAdapter with a server it starts', () => {
  it('streams a turn as text, usage, done; the next turn continues the same OpenCode session', async () => {
    const first = await drain(adapter.createSource(request(`${TAGS.complete} Say hello.`)).stream())
    expect(first.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content).join('')).toBe(COMPLETE_TEXT)
    expect(first.filter((chunk) => chunk.type === 'text').length).toBeGreaterThan(1) // streamed, not one blob
    expect(first.at(-1)).toMatchObject({ type: 'done', metadata: { agent: 'opencode', finish: 'stop' } })
    expect(first.find((chunk) => chunk.type === 'usage')?.usage).toEqual({ promptTokens: 10, completionTokens: 12, totalTokens: 22 })
    const sessionId = adapter.agentSessionId()
    expect(sessionId).toMatch(/^ses_/)
    expect(adapter.serverUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(adapter.agentRunState.getSnapshot()).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'completed' })

    await drain(adapter.createSource(request(`${TAGS.complete} And again.`)).stream())
    expect(adapter.agentSessionId()).toBe(sessionId)
    const last = model.requests.filter((recorded) => !recorded.side).at(-1)
    expect(JSON.stringify(last?.body.messages)).toContain('Say hello.') // the earlier turn is in the conversation
    expect(adapter.agentChat()?.messages.filter((message) => message.role === 'user')).toHaveLength(2)
  }, 120_000)

  it('a bash permission shows as pendingDialog and answerDialog("Allow once") runs the tool live', async () => {
    const source = adapter.createSource(request(`${TAGS.bash} Run the marker command.`))
    const asked = snapshotWhere((snapshot) => snapshot.status === 'waiting_for_approval')
    const chunks = drain(source.stream())
    const snapshot = await asked
    expect(snapshot.pendingDialog).toMatchObject({ answerable: true, prompt: `Allow bash: echo ${BASH_MARKER}?` })
    await expect(adapter.agentRunState.answerDialog?.('per_notThere', { kind: 'plan', approved: true })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG' })
    await expect(adapter.agentRunState.answerDialog?.(snapshot.pendingDialog?.toolId ?? '', { kind: 'question', answers: [{ question: 'x', chosen: ['Maybe'] }] })).rejects.toMatchObject({ code: 'DIALOG_ANSWER_MISMATCH' })
    expect(await adapter.agentRunState.answerDialog?.(snapshot.pendingDialog?.toolId ?? '', { kind: 'question', answers: [{ question: snapshot.pendingDialog?.prompt ?? '', chosen: ['Allow once'] }] })).toEqual({ delivered: 'live' })
    const all = await chunks
    const call = all.find((chunk) => chunk.type === 'tool_call')
    expect(call?.toolCall).toMatchObject({ name: 'bash', args: JSON.stringify({ command: `echo ${BASH_MARKER}`, description: 'Print a marker' }) })
    expect(call?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running' })
    expect(all.find((chunk) => chunk.type === 'tool_result' && chunk.toolCall?.id === call?.toolCall?.id)?.toolCall?.result).toContain(BASH_MARKER)
    expect(all.at(-1)?.type).toBe('done')
  }, 120_000)

  it('a question shows as pendingDialog and the answer reaches the model', async () => {
    const source = adapter.createSource(request(`${TAGS.question} Ask me about the color.`))
    const asked = snapshotWhere((snapshot) => snapshot.state === 'question')
    const chunks = drain(source.stream())
    const snapshot = await asked
    expect(snapshot).toMatchObject({ status: 'waiting_for_input', pendingDialog: { prompt: 'Which color should the button be?', answerable: true } })
    expect(await adapter.agentRunState.answerDialog?.(snapshot.pendingDialog?.toolId ?? '', { kind: 'question', answers: [{ question: 'Which color should the button be?', chosen: ['Other'], otherText: 'Teal, please' }] })).toEqual({ delivered: 'live' })
    expect((await chunks).at(-1)?.type).toBe('done')
    const answered = model.requests.filter((recorded) => !recorded.side).map((recorded) => JSON.stringify(recorded.body.messages))
    expect(answered.some((body) => body.includes('tool_result') && body.includes('Teal, please'))).toBe(true)
  }, 120_000)

  it('abort mid-stream ends the stream with nothing more, and the session takes the next turn', async () => {
    const source = adapter.createSource(request(`${TAGS.hang} Write a long essay.`))
    const iterator = source.stream()
    const first = await iterator.next()
    expect(first.value).toMatchObject({ type: 'text', content: 'Working on it' })
    source.abort()
    expect(await drain(iterator, undefined, 10_000)).toEqual([])
    // The next turn runs after the abort reached the server: the session is usable again.
    const next = await drain(adapter.createSource(request(`${TAGS.complete} Still there?`)).stream())
    expect(next.at(-1)?.type).toBe('done')
    const aborted = adapter.agentChat()?.messages.filter((message) => message.role === 'assistant' && message.text === 'Working on it')
    expect(aborted).toHaveLength(1)
  }, 120_000)

  it('a model failure is one error chunk and the run state is failed', async () => {
    const chunks = await drain(adapter.createSource(request(`${TAGS.fail} Anything.`)).stream())
    expect(chunks.filter((chunk) => chunk.type === 'error')).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ type: 'error', metadata: { code: 'OPENCODE_TURN_FAILED' } })
    expect(chunks.at(-1)?.content).toContain('the scripted model refuses')
    expect(adapter.agentRunState.getSnapshot()).toMatchObject({ state: 'needs_input', status: 'failed' })
  }, 120_000)

  it('dispose() stops the server and its whole process tree', async () => {
    const url = adapter.serverUrl() ?? ''
    const pid = serverPid()
    expect(isProcessAlive(pid)).toBe(true)
    const tree = [pid, ...listDescendantPids(pid)]
    await adapter.dispose()
    for (const member of tree) expect(isProcessAlive(member), `pid ${member} outlived dispose()`).toBe(false)
    expect(isGroupAlive(pid)).toBe(false)
    await expect(fetch(`${url}/session/status`)).rejects.toThrow()
    const after = await drain(adapter.createSource(request(`${TAGS.complete} Hello?`)).stream())
    expect(after).toMatchObject([{ type: 'error', metadata: { code: 'OPENCODE_DISPOSED' } }])
  }, 60_000)
})

/** The started server's pid: the descendant of this process whose arguments carry the adapter's port. */
function serverPid(): number {
  const port = new URL(adapter.serverUrl() ?? 'http://x:0').port
  const found = listDescendantPids(process.pid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--port\u0000${port}`)
    } catch {
      return false
    }
  })
  return found ?? 0
}
