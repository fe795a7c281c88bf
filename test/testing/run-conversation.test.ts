import { describe, expect, it } from 'vitest'
import { agentScript } from '../../src/testing/conversations/agent-script.js'
import { runConversation } from '../../src/testing/conversations/run-conversation.js'
import { scriptedAdapter } from '../../src/testing/scripted-adapter.js'
import { shopBot } from './fixtures/shop-bot.js'

const summary = (run: Awaited<ReturnType<typeof runConversation>>) =>
  run.turns.map((turn) => ({
    turn: turn.number,
    reply: turn.reply,
    trace: turn.trace && `${turn.trace.kind}/${turn.trace.outcome}/${turn.trace.routeId ?? '-'}/${turn.trace.fromState}->${turn.trace.toState}${turn.trace.replayed ? '/replayed' : ''}`,
    state: turn.snapshot.state,
    calls: turn.adapterCalls.length,
  }))

describe('runConversation', () => {
  it('drives user, event, retry, edit and regenerate steps through a real controller and reports each turn', async () => {
    const run = await runConversation(shopBot, [
      { user: '/start' },
      { user: 'what do you sell?' },
      { user: 'order tea' },
      { retry: true },
      { event: 'confirm', label: 'Yes' },
      { edit: { turn: 3, text: 'order milk' } },
      { regenerate: { turn: 1 } },
    ])
    expect(summary(run)).toEqual([
      { turn: 1, reply: 'Welcome! Type /help or order something.', trace: 'deterministic/ok/start/idle->menu', state: 'menu', calls: 0 },
      { turn: 2, reply: 'I am the agent.', trace: 'agentic/ok/-/menu->menu', state: 'menu', calls: 1 },
      { turn: 3, reply: 'Confirm your tea?', trace: 'deterministic/ok/order/menu->ordering', state: 'ordering', calls: 0 },
      { turn: 4, reply: 'Confirm your tea?', trace: 'deterministic/ok/order/menu->ordering/replayed', state: 'ordering', calls: 0 },
      { turn: 5, reply: 'Ordered.', trace: 'deterministic/ok/confirm/ordering->done', state: 'done', calls: 0 },
      { turn: 6, reply: 'Confirm your milk?', trace: 'deterministic/ok/order/menu->ordering', state: 'ordering', calls: 0 },
      { turn: 7, reply: 'Welcome! Type /help or order something.', trace: 'deterministic/ok/start/idle->menu/replayed', state: 'menu', calls: 0 },
    ])
    expect(run.turns[4]?.snapshot.context).toEqual({ item: 'tea', orders: 1 })
    // The edit truncated the confirmation: the context follows history.
    expect(run.turns[5]?.snapshot.context).toEqual({ item: 'milk', orders: 0 })
    expect(run.adapterCalls).toHaveLength(1)
    // The request holds the history and, as upstream does, the empty assistant message being streamed.
    expect(run.adapterCalls[0]?.request.messages.map((message) => message.content)).toEqual(['/start', 'Welcome! Type /help or order something.', 'what do you sell?', ''])
    expect(run.traces).toHaveLength(7)
  })

  it('uses deterministic ids and time, so two runs are identical', async () => {
    const steps = [{ user: '/start' }, { user: 'hi' }]
    const [a, b] = [await runConversation(shopBot, steps), await runConversation(shopBot, steps)]
    expect(a.messages.map((message) => message.id)).toEqual(['msg-1', 'msg-2', 'msg-3', 'msg-4'])
    expect(a.traces.map((trace) => [trace.turnId, trace.sessionId, trace.at])).toEqual(b.traces.map((trace) => [trace.turnId, trace.sessionId, trace.at]))
    expect(a.traces[0]?.at).toMatch(/^2026-01-01T00:00:00/)
    expect(a.messages).toEqual(b.messages)
  })

  it('answers agentic turns with options.adapter and stops a streaming turn after its first chunk', async () => {
    const agent = scriptedAdapter(agentScript(['Hello there my friend', 'Second answer']), { strict: true })
    const run = await runConversation(shopBot, [{ user: '/start' }, { user: 'hello' }, { stop: true }, { user: 'again' }], { adapter: agent })
    expect(summary(run).slice(1)).toEqual([
      { turn: 2, reply: 'Hello ', trace: 'agentic/aborted/-/menu->menu', state: 'menu', calls: 1 },
      { turn: 3, reply: 'Hello ', trace: 'agentic/aborted/-/menu->menu', state: 'menu', calls: 1 },
      { turn: 4, reply: 'Second answer', trace: 'agentic/ok/-/menu->menu', state: 'menu', calls: 1 },
    ])
    expect(run.adapterCalls.map((call) => call.aborted)).toEqual([true, false])
    expect(() => agent.assertDone()).not.toThrow()
  })

  it('starts in another state with a patched context', async () => {
    const run = await runConversation(shopBot, [{ event: 'confirm' }], { start: { state: 'ordering', context: { item: 'jam' } } })
    expect(run.turns[0]?.trace?.routeId).toBe('confirm')
    expect(run.snapshot).toMatchObject({ state: 'done', context: { item: 'jam', orders: 1 } })
  })

  it('reports a step that cannot run as a turn error, and rejects invalid steps before running', async () => {
    const run = await runConversation(shopBot, [{ user: '/start' }, { user: 'order tea' }, { edit: { turn: 1, text: '/start' } }, { edit: { turn: 2, text: 'order jam' } }])
    expect(run.turns[3]?.error).toBe("turn 2's user message is no longer in the history (an earlier edit or regenerate removed it)")
    expect(run.turns[3]?.trace).toBeUndefined()
    await expect(runConversation(shopBot, [{ retry: true }, { edit: { turn: 1, text: 'x' } }])).rejects.toThrow(
      'runConversation: turn 2: edit.turn 1 is `retry`, not a user or event turn',
    )
  })
})
