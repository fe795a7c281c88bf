import { describe, expect, it, vi } from 'vitest'
import type { AgentSnapshot } from '../../src/contract/agent-snapshot.js'
import type { AgentRunStateSource, LiveAgentAdapter } from '../../src/contract/live-agent-adapter.js'
import { ChatrailConfigError, ChatrailError, createChatSession, defineChat } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// What a session refuses asynchronously, whose words load with a module of their own (issue 32: a
// misuse's message need not be in every app's initial load): the refusal is what it was, and a
// valid call does not wait for that module. session.answerDialog delivers an answer to the pending
// dialog in the call itself; its refusal says which dialog is pending. session.persist() without
// storage rejects with the config error saying what to pass.

const plan = { toolId: 'tool-1', kind: 'plan' as const, prompt: 'p', options: [], multiSelect: false, answerable: true }

function liveSession(pendingDialog?: typeof plan) {
  const snapshot: AgentSnapshot = { agent: 'claude-code', state: 'question', status: 'waiting_for_input', ...(pendingDialog ? { pendingDialog } : {}) }
  const answerDialog = vi.fn(async () => ({ delivered: 'live' as const }))
  const runState: AgentRunStateSource = { getSnapshot: () => snapshot, subscribe: () => () => undefined, answerDialog }
  const adapter: LiveAgentAdapter = { ...scriptedAdapter(['x']), agentRunState: runState }
  const session = createChatSession(defineChat({ id: 'dialogs', chat: { adapter }, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } }))
  return { session, answerDialog }
}

describe('session.answerDialog', () => {
  it('delivers the answer to the pending dialog within the call, before anything is awaited', async () => {
    const { session, answerDialog } = liveSession(plan)
    const answered = session.answerDialog('tool-1', { kind: 'plan', approved: true })
    expect(answerDialog).toHaveBeenCalledWith('tool-1', { kind: 'plan', approved: true })
    await expect(answered).resolves.toEqual({ delivered: 'live' })
  })

  it('refuses another dialog, naming the pending one, and delivers nothing', async () => {
    const { session, answerDialog } = liveSession(plan)
    const refusal = await session.answerDialog('tool-2', { kind: 'plan', approved: true }).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(ChatrailError)
    expect(refusal).toMatchObject({
      code: 'NO_PENDING_DIALOG',
      message: 'The pending dialog is "tool-1", not "tool-2".',
      hint: 'Answer the dialog shown in getSnapshot().agent.pendingDialog, by its toolId.',
    })
    expect(answerDialog).not.toHaveBeenCalled()
  })

  it('refuses when no dialog is pending, and when the adapter is not a live agent', async () => {
    await expect(liveSession().session.answerDialog('tool-1', { kind: 'plan', approved: true })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG', message: 'There is no pending dialog to answer.' })
    const plain = createChatSession(defineChat({ id: 'plain', chat: { adapter: scriptedAdapter(['x']) }, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } }))
    await expect(plain.answerDialog('tool-1', { kind: 'plan', approved: true })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG', message: 'There is no pending dialog to answer.' })
  })
})

describe('session.persist() without storage', () => {
  it('rejects with missing_session_storage, naming the session and the option', async () => {
    const session = createChatSession(defineChat({ id: 'unsaved', chat: { adapter: scriptedAdapter(['x']) }, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } }), { sessionId: 's-1' })
    const refusal = await session.persist().catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(ChatrailConfigError)
    expect(refusal).toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'session.persist(): session "s-1" has no storage.',
      hint: 'Pass storage: { load, save } to createChatSession (docs/persistence.md § Session snapshots).',
      issues: [{ code: 'missing_session_storage', path: ['storage'] }],
    })
    expect(session.getCursor()).toBe(0)
  })
})
