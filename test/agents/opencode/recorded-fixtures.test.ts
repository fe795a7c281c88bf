import { describe, expect, it } from 'vitest'
import { composeChat } from '../../../src/agents/opencode/compose-chat.js'
import { readEventLog } from '../../../src/agents/opencode/event-log.js'
import { createSessionModel, resync } from '../../../src/agents/opencode/session-fold.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { eventsPath, messagesJson, pendingJson, SCENARIOS } from './fixture-files.js'
import type { Scenario } from './fixture-files.js'

/**
 * The reader on the recorded real runs: the event stream's fold, and the same session read back
 * from `GET /session/:id/message` (what a resync does) must tell the same story.
 */

const fold = (scenario: Scenario): Promise<AgentChat> => readEventLog({ transcriptPath: eventsPath(scenario) })

function fromMessages(scenario: Scenario, sessionId: string): AgentChat {
  const model = createSessionModel(sessionId)
  resync(model, { messages: messagesJson(scenario), status: undefined, permissions: [], questions: [] })
  return composeChat(model)
}

const outline = (chat: AgentChat): unknown[] => chat.messages.map((message) => [message.seq, message.kind, message.role, message.text ?? message.tool?.status ?? message.dialog?.kind])

describe('recorded OpenCode runs, folded from the event stream', () => {
  it('a turn that completes: prompt, streamed reply, completed, usage from the assistant tokens', async () => {
    const chat = await fold('turn-completes')
    expect(chat).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'completed', warnings: [] })
    expect(chat.sessionId).toMatch(/^ses_/)
    expect(outline(chat)).toEqual([
      [1, 'text', 'user', '[complete] Say hello.'],
      [2, 'text', 'assistant', 'Hello from OpenCode — café ✓'],
    ])
    expect(chat.usage).toEqual({ inputTokens: 10, outputTokens: 12, cacheReadTokens: 0, cacheCreationTokens: 0 })
    expect(chat.messages[0]?.at).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it('a permission answered once: the bash tool ran, its output kept, then the final text', async () => {
    const chat = await fold('permission-once')
    expect(chat.status).toBe('completed')
    const tool = chat.messages.find((message) => message.kind === 'tool')?.tool
    expect(tool).toMatchObject({ name: 'bash', status: 'ok', input: { command: 'echo chatrail-ran-this' } })
    expect(tool?.output).toContain('chatrail-ran-this')
    expect(chat.messages.at(-1)?.text).toBe('The command finished.')
    expect(chat.pendingDialog).toBeUndefined()
  })

  it('a permission rejected: the tool is an error and the turn is stopped, saying why', async () => {
    const chat = await fold('permission-reject')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'stopped' })
    expect(chat.detail).toMatch(/^bash was denied: .*rejected permission/)
    expect(chat.messages.find((message) => message.kind === 'tool')?.tool).toMatchObject({ status: 'error', output: expect.stringContaining('rejected') as unknown })
  })

  it('a question answered: a dialog message with the chosen label as its outcome', async () => {
    const chat = await fold('question-answered')
    expect(chat.status).toBe('completed')
    const dialog = chat.messages.find((message) => message.kind === 'dialog')?.dialog
    expect(dialog).toMatchObject({ kind: 'question', prompt: 'Which color should the button be?', answerable: false })
    expect(dialog?.options.map((option) => option.label)).toEqual(['Red', 'Blue', 'Other'])
    expect(dialog?.outcome).toEqual({ dismissed: false, approved: false, results: [{ question: 'Which color should the button be?', chosen: ['Blue'] }] })
  })

  it('an abort mid-stream: stopped, the partial text kept', async () => {
    const chat = await fold('aborted')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'stopped', detail: 'aborted' })
    expect(chat.messages.at(-1)).toMatchObject({ kind: 'text', role: 'assistant', text: 'Working on it' })
  })

  it.each(SCENARIOS)('%s: the messages endpoint gives the same messages and state as the event fold', async (scenario) => {
    const folded = await fold(scenario)
    const read = fromMessages(scenario, folded.sessionId ?? '')
    expect(read.messages).toEqual(folded.messages)
    expect(read.usage).toEqual(folded.usage)
    // A session absent from /session/status is idle, so the read ends in the state the events ended in.
    expect([read.state, read.status, read.detail]).toEqual([folded.state, folded.status, folded.detail])
  })
})

describe('recorded reads taken while the server waited', () => {
  const snapshotChat = (scenario: Scenario): AgentChat => {
    const pending = pendingJson(scenario)
    const model = createSessionModel(pending.sessionId)
    resync(model, { messages: pending.messages, status: pending.status[pending.sessionId], permissions: pending.permissions, questions: pending.questions })
    return composeChat(model)
  }

  it('a pending bash permission is needs_input / waiting_for_approval with an answerable three-way dialog', () => {
    const chat = snapshotChat('permission-once')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', detail: 'permission: Allow bash: echo chatrail-ran-this?' })
    expect(chat.pendingDialog).toMatchObject({ kind: 'question', answerable: true, multiSelect: false, prompt: 'Allow bash: echo chatrail-ran-this?' })
    expect(chat.pendingDialog?.toolId).toMatch(/^per_/)
    expect(chat.pendingDialog?.options.map((option) => option.label)).toEqual(['Allow once', 'Always allow', 'Reject'])
    expect(chat.messages.find((message) => message.kind === 'tool')?.tool?.status).toBe('running')
  })

  it('a pending question is question / waiting_for_input, keyed by the tool call id, with Other for typed answers', () => {
    const chat = snapshotChat('question-answered')
    expect(chat).toMatchObject({ state: 'question', status: 'waiting_for_input' })
    expect(chat.pendingDialog).toMatchObject({ kind: 'question', answerable: true, prompt: 'Which color should the button be?' })
    expect(chat.pendingDialog?.toolId).toMatch(/^toolu_/)
    expect(chat.pendingDialog?.options.at(-1)).toEqual({ label: 'Other', isOther: true })
  })

  it('requests of other sessions are not this session\'s', () => {
    const pending = pendingJson('permission-once')
    const model = createSessionModel('ses_someoneElse')
    resync(model, { messages: [], status: undefined, permissions: pending.permissions, questions: pending.questions })
    expect(composeChat(model)).toMatchObject({ state: 'idle', status: 'idle' })
  })
})
