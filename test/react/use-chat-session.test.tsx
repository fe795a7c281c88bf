// @vitest-environment happy-dom
import { StrictMode } from 'react'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useChatSession } from '../../renderers/react/use-chat-session.js'
import type { ChatDefinition } from '../../src/conversation/index.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { DialogAnswerResult } from '../../src/contract/dialog.js'
import type { LiveAgentAdapter } from '../../src/contract/live-agent-adapter.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { countingAdapter, supportChat } from './support-chat.js'

afterEach(cleanup)

const quietly = { lint: false }

interface Props { def: ChatDefinition; key?: string }

function renderChat(definition: ChatDefinition, strict = false) {
  const initialProps: Props = { def: definition }
  return renderHook(({ def, key }: Props) => useChatSession(def, { ...quietly, key }), {
    initialProps,
    wrapper: strict ? StrictMode : undefined,
  })
}

describe('useChatSession', () => {
  it('answers a matched command deterministically: state advances, no adapter call', async () => {
    const adapter = countingAdapter()
    const { result } = renderChat(supportChat(adapter))
    expect(result.current.snapshot.state).toBe('welcome')
    await act(() => result.current.send('/start'))
    expect(result.current.snapshot.state).toBe('triage')
    expect(result.current.snapshot.events).toEqual(['ESCALATE', 'RESOLVE'])
    expect(result.current.messages.map((m) => m.content)).toEqual(['/start', 'How can I help? Describe the problem.'])
    expect(result.current.traces.at(-1)).toMatchObject({ kind: 'deterministic', routeId: 'start', replayed: false })
    expect(adapter.calls()).toBe(0)
  })

  it('sends unmatched input to the agent, and retry of a decided turn replays without a call', async () => {
    const adapter = countingAdapter('I can look into that.')
    const { result } = renderChat(supportChat(adapter))
    await act(() => result.current.send('/start'))
    await act(() => result.current.retry())
    expect(result.current.traces.at(-1)).toMatchObject({ kind: 'deterministic', replayed: true })
    expect(result.current.messages.at(-1)?.content).toBe('How can I help? Describe the problem.')
    expect(adapter.calls()).toBe(0)
    await act(() => result.current.send('my printer is on fire'))
    expect(adapter.calls()).toBe(1)
    expect(result.current.traces.at(-1)?.kind).toBe('agentic')
    expect(result.current.messages.at(-1)?.content).toBe('I can look into that.')
  })

  it('sendEvent goes through history as a user message with metadata.chatrail.event', async () => {
    const adapter = countingAdapter()
    const { result } = renderChat(supportChat(adapter))
    await act(() => result.current.send('/start'))
    await act(() => result.current.sendEvent('ESCALATE', 'Talk to a person'))
    const user = result.current.messages.at(-2)
    expect(user).toMatchObject({ role: 'user', content: 'Talk to a person', metadata: { chatrail: { event: 'ESCALATE' } } })
    expect(result.current.snapshot.state).toBe('human')
    expect(adapter.calls()).toBe(0)
  })

  it('under StrictMode creates one session (one agent subscription) and sends one request', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    // Every session subscribes to the agent once when created: count subscriptions ever made.
    let subscriptions = 0
    const subscribe = agent.agentRunState.subscribe
    agent.agentRunState.subscribe = (listener) => { subscriptions += 1; return subscribe(listener) }
    const { result } = renderChat(supportChat(agent), true)
    await act(async () => { await Promise.resolve() })
    expect(subscriptions).toBe(1)
    expect(agent.subscribers()).toBe(1)
    await act(() => result.current.send('hello there'))
    expect(agent.calls()).toBe(1)
    expect(result.current.messages).toHaveLength(2)
  })

  it('a new definition object with the same id and revision keeps progress and uses the new adapter next turn', async () => {
    const first = countingAdapter('from the first adapter')
    const second = countingAdapter('from the second adapter')
    const { result, rerender } = renderChat(supportChat(first))
    await act(() => result.current.send('/start'))
    const session = result.current.session
    rerender({ def: supportChat(second) })
    expect(result.current.session).toBe(session)
    expect(result.current.snapshot.state).toBe('triage')
    await act(() => result.current.send('still broken'))
    expect([first.calls(), second.calls()]).toEqual([0, 1])
    expect(result.current.messages.at(-1)?.content).toBe('from the second adapter')
  })

  it('a new revision, or a new key, starts a fresh session', async () => {
    const adapter = countingAdapter()
    const { result, rerender } = renderChat(supportChat(adapter))
    await act(() => result.current.send('/start'))
    const first = result.current.session
    rerender({ def: supportChat(adapter, { revision: 2 }) })
    expect(result.current.session).not.toBe(first)
    expect(result.current.snapshot.state).toBe('welcome')
    expect(result.current.messages).toEqual([])
    await act(() => result.current.send('/start'))
    const second = result.current.session
    rerender({ def: supportChat(adapter, { revision: 2 }), key: 'other' })
    expect(result.current.session).not.toBe(second)
    expect(result.current.snapshot.state).toBe('welcome')
  })

  it('unmounting stops the running turn and releases the session', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 30 })
    const adapter = countingAdapter('a long reply that keeps streaming for a while', 30)
    const { result, unmount } = renderChat(supportChat({ ...adapter, agentRunState: agent.agentRunState } as AdapterFactory))
    act(() => { void result.current.send('tell me everything') })
    await waitFor(() => expect(result.current.status).toBe('streaming'))
    expect(agent.subscribers()).toBe(1)
    unmount()
    expect(adapter.aborts()).toBe(1)
    await act(async () => { await Promise.resolve() })
    expect(agent.subscribers()).toBe(0)
  })

  it('syncs the session on every controller change: an edit without regenerate re-derives state', async () => {
    const adapter = countingAdapter()
    const { result } = renderChat(supportChat(adapter))
    await act(() => result.current.send('/start'))
    expect(result.current.snapshot.state).toBe('triage')
    const userId = result.current.messages[0]?.id as string
    await act(() => result.current.edit(userId, 'hello', { regenerate: false }))
    expect(result.current.messages.map((m) => m.content)).toEqual(['hello'])
    expect(result.current.snapshot.state).toBe('welcome')
  })
})

describe('useChatSession with a live agent', () => {
  it('shows the pending dialog, answers it live, and records the Q→A outcome', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const { result } = renderChat(supportChat(agent))
    act(() => { void result.current.send('please ask me first') })
    await waitFor(() => expect(result.current.pendingDialog?.toolId).toBe('toolu_ask_1'))
    expect(result.current.snapshot.agent).toMatchObject({ state: 'question', pendingDialog: { toolId: 'toolu_ask_1' } })
    const answers = [{ question: 'Which plan are you on?', chosen: ['Pro'] }]
    let delivered: DialogAnswerResult | undefined
    await act(async () => { delivered = await result.current.answerDialog('toolu_ask_1', { kind: 'question', answers }) })
    expect(delivered).toEqual({ delivered: 'live' })
    await waitFor(() => expect(result.current.status).toBe('idle'))
    expect(result.current.pendingDialog).toBeUndefined()
    expect(result.current.dialogLog.map((entry) => entry.dialog.outcome)).toEqual([{ dismissed: false, approved: false, results: answers }])
    expect(result.current.messages.at(-1)?.content).toBe('One question before I continue. Thanks — Pro.')
    expect(agent.calls()).toBe(1)
  })

  it('a next-turn answer is sent as the next user message', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const headless: LiveAgentAdapter = {
      ...agent,
      agentRunState: {
        ...agent.agentRunState,
        answerDialog: async (): Promise<DialogAnswerResult> => ({ delivered: 'next-turn', text: 'I am on the Team tier.' }),
      },
    }
    const { result } = renderChat(supportChat(headless))
    act(() => { void result.current.send('please ask me first') })
    await waitFor(() => expect(result.current.pendingDialog).toBeDefined())
    await act(async () => { await result.current.answerDialog('toolu_ask_1', { kind: 'question', answers: [{ question: 'Which plan are you on?', chosen: ['Team'] }] }) })
    await waitFor(() => expect(result.current.status).toBe('idle'))
    const users = result.current.messages.filter((m) => m.role === 'user').map((m) => m.content)
    expect(users).toEqual(['please ask me first', 'I am on the Team tier.'])
    expect(agent.calls()).toBe(2)
  })

  it('answering a dialog that is not pending rejects with NO_PENDING_DIALOG and changes nothing', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const { result } = renderChat(supportChat(agent))
    await expect(result.current.answerDialog('toolu_nope', { kind: 'plan', approved: true })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG' })
    expect(result.current.dialogLog).toEqual([])
  })
})
