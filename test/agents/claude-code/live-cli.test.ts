import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { locateTranscript, transcriptPathFor } from '../../../src/agents/claude-code/locate.js'
import { setupLiveSignals, signalDigest } from '../../../src/agents/claude-code/live-signals.js'
import { createChatReader, readChat } from '../../../src/agents/claude-code/read-chat.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { startAnthropicServer } from '../../support/anthropic-server.js'
import type { AnthropicServer } from '../../support/anthropic-server.js'
import { CLAUDE_BIN, KEY, makeClaudeHome, poll, runHeadless, startInteractive } from '../../support/claude-cli.js'
import type { ClaudeHome, InteractiveClaude } from '../../support/claude-cli.js'

/**
 * The reader against the real Claude Code CLI (2.1.197) and the scripted model server, live:
 * headless turns, then one interactive session in a pty that goes through a permission prompt,
 * a question (read while it is open, through the registry and the hook spool), an answer and a
 * /clear. About 40 s in all; every process is killed and every HOME removed afterwards.
 */

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(turns: Parameters<typeof startAnthropicServer>[0]['turns']): Promise<{ home: ClaudeHome; server: AnthropicServer }> {
  const home = makeClaudeHome()
  const server = await startAnthropicServer({ turns })
  cleanups.push(() => home.cleanup(), () => server.close())
  return { home, server }
}

function sessionOf(events: Array<Record<string, unknown>>): string {
  const init = events.find((e) => e.type === 'system' && e.subtype === 'init')
  if (typeof init?.session_id !== 'string') throw new Error('no system/init event with a session_id')
  return init.session_id
}

describe.skipIf(!existsSync(CLAUDE_BIN))('live: claude -p (headless)', () => {
  it('a tool turn: the transcript the CLI wrote reads as completed, tool ok, prompt passed after "--"', async () => {
    const { home, server } = await setup([
      { content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', name: 'Bash', input: { command: 'echo live', description: 'echo' } }] },
      { content: [{ type: 'text', text: 'It printed live.' }] },
    ])
    const result = await runHeadless({ home, serverUrl: server.url, prompt: '--looks-like-a-flag please echo', args: ['--allowedTools', 'Bash'] })
    expect(result.exitCode).toBe(0)
    const path = transcriptPathFor({ home: home.home, cwd: home.cwd, sessionId: sessionOf(result.events) })
    const chat = await readChat({ runId: 'live', runtimeDir: '', transcriptPath: path })
    expect(chat).toMatchObject({ state: 'needs_input', status: 'completed', warnings: [] })
    expect(chat.messages.map((m) => m.text ?? m.tool?.name)).toEqual(['--looks-like-a-flag please echo', 'Checking.', 'Bash', 'It printed live.'])
    expect(chat.messages[2]?.tool).toMatchObject({ status: 'ok', output: 'live' })
  }, 90_000)

  it('an API error turn reads as failed, and the StopFailure hook marker agrees', async () => {
    const { home, server } = await setup([{ error: { status: 400, type: 'invalid_request_error', message: 'live refusal' } }])
    const runtimeDir = join(home.home, 'runtime')
    const signals = setupLiveSignals({ runId: 'live', runtimeDir })
    const result = await runHeadless({ home, serverUrl: server.url, prompt: 'hello', args: signals.args })
    const path = transcriptPathFor({ home: home.home, cwd: home.cwd, sessionId: sessionOf(result.events) })
    const chat = await readChat({ runId: 'live', runtimeDir, transcriptPath: path })
    expect(chat).toMatchObject({ state: 'needs_input', status: 'failed' })
    expect(chat.detail).toContain('live refusal')
    // The marker is written by the StopFailure hook, a process of its own: under load it was seen to
    // land after `claude -p` had exited (1 of 10 stress rounds), so wait for it, bounded.
    const marker = await poll('the StopFailure marker', () => (existsSync(signals.markerPath) ? readFileSync(signals.markerPath, 'utf8') : undefined), 10_000)
    expect(JSON.parse(marker)).toMatchObject({ hook_event_name: 'StopFailure' })
  }, 90_000)
})

describe.skipIf(!existsSync(CLAUDE_BIN))('live: interactive claude in a pty', () => {
  it('permission prompt → denied; question open → answered; /clear → a new transcript', async () => {
    const ask = { questions: [{ question: 'Which color do you prefer?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }] }
    const { home, server } = await setup([
      { content: [{ type: 'text', text: 'Creating it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'touch made.txt', description: 'Create made.txt' } }] },
      { content: [{ type: 'text', text: 'Let me ask.' }, { type: 'tool_use', name: 'AskUserQuestion', input: ask }] },
      { content: [{ type: 'text', text: 'Red it is.' }] },
    ])
    const runtimeDir = join(home.home, 'runtime')
    const runId = 'live-run'
    const signals = setupLiveSignals({ runId, runtimeDir })
    const cli: InteractiveClaude = startInteractive({ home, serverUrl: server.url, args: signals.args })
    cleanups.push(() => cli.kill())
    await cli.waitFor('forshortcuts', { timeoutMs: 45_000 })

    // The CLI registers itself a moment after its first screen; until then there is nothing to read.
    const readNow = async (): Promise<AgentChat | undefined> => {
      const located = await locateTranscript({ home: home.home, cwd: home.cwd })
      return located === undefined ? undefined : readChat({ runId, runtimeDir, transcriptPath: located.exists ? located.path : '', registry: located.registry })
    }
    let last: AgentChat | undefined
    const until = (what: string, check: (chat: AgentChat) => boolean): Promise<AgentChat> =>
      poll(what, async () => {
        last = await readNow()
        return last !== undefined && check(last) ? last : undefined
      }, 30_000, () => JSON.stringify({ state: last?.state, status: last?.status, detail: last?.detail }))

    // 1. A Bash permission prompt: the transcript alone says "running Bash"; the registry says waiting.
    await cli.submit('Create a file')
    // The registry can say "waiting" a moment before the tool_use line lands; then the tool shows too.
    const permission = await until('the permission prompt', (c) => c.status === 'waiting_for_approval' && c.messages.some((m) => m.tool?.name === 'Bash'))
    expect(permission).toMatchObject({ state: 'needs_input', detail: 'permission prompt (Bash)' })
    const located = await locateTranscript({ home: home.home, cwd: home.cwd })
    expect(located?.registry.pid).toBe(cli.pid)
    cli.write(KEY.esc)
    await until('the denial', (c) => c.status === 'stopped')

    // 2. A question, read while open: from the transcript, and from the hook spool before any transcript.
    const tail = createChatReader({ runId, runtimeDir, transcriptPath: located?.path ?? '' })
    await cli.submit('Pick a color')
    // The PreToolUse hook runs before the CLI writes the tool_use: the spool can show the dialog
    // first (pendingDialog, not a message), then the transcript takes over with stable seqs.
    const open = await until('the question', (c) => c.state === 'question')
    expect(open.pendingDialog ?? open.messages.at(-1)?.dialog).toMatchObject({ prompt: 'Which color do you prefer?', answerable: true })
    const flushed = await until('the question in the transcript', (c) => c.state === 'question' && c.pendingDialog === undefined && c.messages.at(-1)?.kind === 'dialog' && c.detail === 'permission prompt')
    expect(flushed.messages.at(-1)?.dialog).toMatchObject({ prompt: 'Which color do you prefer?', answerable: true })
    expect(flushed.messages.slice(0, open.messages.length).map((m) => [m.seq, m.kind])).toEqual(open.messages.map((m) => [m.seq, m.kind]))
    expect(signalDigest({ runId, runtimeDir })).not.toBe('')
    expect((await readChat({ runId, runtimeDir, transcriptPath: '' })).pendingDialog?.prompt).toBe('Which color do you prefer?')
    const before = await tail.read()
    cli.write(KEY.enter)
    const answered = await until('the answer', (c) => c.status === 'completed' && c.messages.at(-1)?.text === 'Red it is.')
    const dialog = answered.messages.find((m) => m.kind === 'dialog')
    expect(dialog?.dialog?.outcome?.results).toEqual([{ question: 'Which color do you prefer?', chosen: ['Red'] }])
    const after = await tail.read()
    expect(after.messages.slice(0, before.messages.length).map((m) => m.seq)).toEqual(before.messages.map((m) => m.seq))
    expect(existsSync(signals.spoolPath)).toBe(false)

    // 3. /clear: the registry switches session at once; the new transcript starts at seq 1.
    const oldId = located?.transcriptId
    await cli.submit('/clear')
    const cleared = await poll('the /clear rotation', async () => {
      const next = await locateTranscript({ home: home.home, cwd: home.cwd })
      return next !== undefined && next.transcriptId !== oldId ? next : undefined
    })
    expect(cleared.path).not.toBe(located?.path)
    const fresh = await until('the cleared session to settle', (c) => c.state === 'idle')
    expect(fresh.sessionId).toBe(cleared.sessionId)
    expect(fresh.messages.every((m) => m.text === '/clear')).toBe(true)
    expect(server.remaining()).toBe(0)
  }, 120_000)
})
