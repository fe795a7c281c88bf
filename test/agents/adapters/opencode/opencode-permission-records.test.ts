import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import type { OpencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import type { AdapterRequest } from '../../../../src/contract/adapter.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { permissionConfirmations, type PermissionConfirmations } from '../../../../src/conversation/actions.js'
import { servePermissions } from '../../../../src/cli/serve/serve-permissions.js'
import { memoryStore } from '../../../../src/store/index.js'
import { startAnthropicServer } from '../../../support/anthropic-server.js'
import type { AnthropicServer } from '../../../support/anthropic-server.js'
import { makeOpencodeHome, OPENCODE_BIN } from '../../../support/opencode-cli.js'
import type { OpencodeHome } from '../../../support/opencode-cli.js'
import { BASH_MARKER, scriptFor, TAGS } from '../../opencode/opencode-scenarios.js'
import { drainWithin } from '../../../support/drain-source.js'

/**
 * The real `opencode serve`'s permission requests (`bash: "ask"`) as confirmation records
 * (chatrail/actions' `permissionConfirmations`): one test per door. Approving the record replies
 * `once`; answering the pending dialog (`answerDialog`, the old door) decides the same record, so
 * OpenCode gets one reply and a later approval of the record changes nothing.
 */

let model: AnthropicServer
let home: OpencodeHome
let adapter: OpencodeAdapter
let permissions: PermissionConfirmations

beforeAll(async () => {
  model = await startAnthropicServer({ turns: Array.from({ length: 20 }, () => scriptFor), sideText: 'Scripted title' })
  home = makeOpencodeHome({ modelUrl: model.url, permission: { bash: 'ask', question: 'allow' } })
  permissions = permissionConfirmations({ sessionId: 'opencode-1' })
  adapter = opencodeAdapter({ cwd: home.cwd, bin: OPENCODE_BIN, env: home.env, startTimeoutMs: 60_000, graceMs: 2000, permissions })
})

afterAll(async () => {
  permissions?.dispose()
  await adapter?.dispose()
  await model?.close()
  home?.cleanup()
})

const request = (text: string): AdapterRequest => ({ messages: [{ id: `u-${text}`, role: 'user', content: text, status: 'complete', createdAt: new Date(0) }] })

/** The pending record for the next permission request (polled: the request arrives over the event stream). */
async function pendingRecord(seen: ReadonlySet<string>): Promise<{ token: string; toolCallId: string }> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const found = (await permissions.confirmations.list()).find((record) => record.status === 'pending' && !seen.has(record.token))
    if (found) return found
    if (Date.now() > deadline) throw new Error('no permission record within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const ranMarker = (chunks: StreamChunk[]): boolean => chunks.some((chunk) => chunk.type === 'tool_result' && (chunk.toolCall?.result ?? chunk.content ?? '').includes(BASH_MARKER))

describe('opencodeAdapter permission requests as confirmation records (real opencode serve)', () => {
  const seen = new Set<string>()

  it('approving the record (twice, at once) replies once: the command runs', async () => {
    const chunks = drainWithin(adapter.createSource(request(`${TAGS.bash} Run the marker command.`)), 60_000)
    const record = await pendingRecord(seen)
    seen.add(record.token)
    expect(await permissions.confirmations.get(record.token)).toMatchObject({ action: { name: 'bash', input: { patterns: [`echo ${BASH_MARKER}`] } } })
    const decided = await Promise.all([permissions.confirmations.approve(record.token, 'opencode-1'), permissions.confirmations.approve(record.token, 'opencode-1')])
    expect(decided.map((r) => r.status)).toEqual(['approved', 'approved'])
    const all = await chunks
    expect(ranMarker(all)).toBe(true)
    expect(all.at(-1)?.type).toBe('done')
  }, 120_000)

  it('rejecting through the pending dialog (the old door) decides the record: the command never runs, a later approval changes nothing', async () => {
    const chunks = drainWithin(adapter.createSource(request(`${TAGS.bash} Run the marker command again.`)), 60_000)
    const record = await pendingRecord(seen)
    seen.add(record.token)
    const dialog = adapter.agentRunState.getSnapshot()?.pendingDialog
    expect(dialog?.toolId).toBe(record.toolCallId)
    expect(await adapter.agentRunState.answerDialog?.(record.toolCallId, { kind: 'question', answers: [{ question: dialog?.prompt ?? '', chosen: ['Reject'] }] })).toEqual({ delivered: 'live' })
    expect(await permissions.confirmations.get(record.token)).toMatchObject({ status: 'rejected' })
    expect((await permissions.confirmations.approve(record.token, 'opencode-1')).status).toBe('rejected')
    const all = await chunks
    expect(ranMarker(all)).toBe(false)
    expect(all.at(-1)?.type).toBe('done')
  }, 120_000)

  it('one adapter for many conversations (chatrail serve --agent opencode): the request is a record of the conversation its turn names, decided through the dialog there', async () => {
    const store = memoryStore()
    const shared = servePermissions({ store: () => store, principal: undefined, pollMs: 50 })
    const many = opencodeAdapter({ cwd: home.cwd, bin: OPENCODE_BIN, env: home.env, startTimeoutMs: 60_000, graceMs: 2000, permissions: shared })
    try {
      // chatrail/server names the conversation on a live agent's request
      const named: AdapterRequest = { ...request(`${TAGS.bash} Run the marker command once more.`), context: { metadata: { conversationId: 'conv-9' } } }
      const chunks = drainWithin(many.createSource(named), 60_000)
      let records: Awaited<ReturnType<NonNullable<typeof store.listConfirmations>>> = []
      for (let tries = 0; records.length === 0 && tries < 1200; tries++) {
        records = (await store.listConfirmations?.('conv-9')) ?? []
        if (records.length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(records).toEqual([expect.objectContaining({ sessionId: 'conv-9', status: 'pending', action: { name: 'bash', input: { patterns: [`echo ${BASH_MARKER}`] } } })])
      const dialog = many.agentRunState.getSnapshot()?.pendingDialog
      expect(await many.agentRunState.answerDialog?.(records[0]?.toolCallId as string, { kind: 'question', answers: [{ question: dialog?.prompt ?? '', chosen: ['Allow once'] }] })).toEqual({ delivered: 'live' })
      const all = await chunks
      expect(ranMarker(all)).toBe(true)
      expect(await store.loadConfirmation?.(records[0]?.token as string)).toMatchObject({ status: 'approved' })
    } finally {
      shared.dispose()
      await many.dispose()
      await store.close()
    }
  }, 120_000)
})
