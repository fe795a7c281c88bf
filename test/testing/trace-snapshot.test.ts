import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import '../../src/testing/vitest.js'
import { runConversation } from '../../src/testing/conversations/run-conversation.js'
import { traceSnapshotValue } from '../../src/testing/trace-snapshot-serializer.js'
import { IdScrubber, scrubTrace, serializeTraceSnapshot } from '../../src/testing/trace-snapshot.js'
import { shopBot } from './fixtures/shop-bot.js'

const steps = [{ user: '/start' }, { user: 'hello' }, { user: 'order tea' }, { regenerate: true as const }]

describe('trace snapshots', () => {
  it('scrub ids to ordinals, and timestamps and durations to placeholders', async () => {
    const run = await runConversation(shopBot, steps)
    const scrubber = new IdScrubber()
    const [first, , , replay] = run.traces.map((trace) => scrubTrace(trace, scrubber))
    expect(first).toEqual({
      kind: 'deterministic',
      outcome: 'ok',
      routeId: 'start',
      event: 'START',
      fromState: 'idle',
      toState: 'menu',
      replayed: false,
      sessionId: '<session-1>',
      turnId: '<turn-1>',
      messageId: '<message-1>',
      at: '<timestamp>',
      durationMs: '<duration>',
    })
    // The regenerate replays turn 3's decision: same message id, same turn id, flagged replayed.
    expect(replay).toMatchObject({ routeId: 'order', replayed: true, messageId: '<message-3>', turnId: '<turn-3>' })
  })

  it('are identical for runs with random ids and the real clock', async () => {
    const random = await runConversation(shopBot, steps, { sessionId: 's' + randomUUID().replaceAll('-', ''), messageIds: () => randomUUID(), turnIds: () => randomUUID(), clock: () => new Date() })
    const fixed = await runConversation(shopBot, steps)
    expect(random.messages[0]?.id).not.toBe(fixed.messages[0]?.id)
    const text = (value: unknown) => {
      const result = traceSnapshotValue(value)
      if (!result.ok) throw new Error(result.message)
      return result.snapshot.text
    }
    expect(text(random)).toBe(text(fixed))
    expect(text(random.traces)).toBe(text(fixed.traces))
  })

  it('keep deterministic replies and leave model text out unless asked', async () => {
    const run = await runConversation(shopBot, steps.slice(0, 2))
    const turns = run.turns.map((turn) => ({ number: turn.number, label: turn.label, reply: turn.reply, traces: turn.traces, state: turn.snapshot.state, modelCalls: turn.adapterCalls.length }))
    expect(serializeTraceSnapshot(turns)).toBe(
      [
        '- turn: 1',
        '  step: user "/start"',
        '  reply: Welcome! Type /help or order something.',
        '  state: menu',
        '  modelCalls: 0',
        '  traces:',
        '    - kind: deterministic',
        '      outcome: ok',
        '      routeId: start',
        '      event: START',
        '      fromState: idle',
        '      toState: menu',
        '      replayed: false',
        '      sessionId: <session-1>',
        '      turnId: <turn-1>',
        '      messageId: <message-1>',
        '      at: <timestamp>',
        '      durationMs: <duration>',
        '- turn: 2',
        '  step: user "hello"',
        '  state: menu',
        '  modelCalls: 1',
        '  traces:',
        '    - kind: agentic',
        '      outcome: ok',
        '      fromState: menu',
        '      toState: menu',
        '      replayed: false',
        '      sessionId: <session-1>',
        '      turnId: <turn-2>',
        '      messageId: <message-2>',
        '      at: <timestamp>',
        '      durationMs: <duration>',
      ].join('\n'),
    )
    expect(serializeTraceSnapshot(turns, { replies: 'all' })).toContain('  reply: I am the agent.')
    expect(serializeTraceSnapshot(turns, { replies: 'none' })).not.toContain('reply:')
  })

  it('toMatchTraceSnapshot stores the scrubbed YAML (see __snapshots__) and rejects what it cannot read', async () => {
    const run = await runConversation(shopBot, steps)
    expect(run).toMatchTraceSnapshot()
    expect(() => expect('nope').toMatchTraceSnapshot()).toThrow(/^toMatchTraceSnapshot: expected a ConversationRun, a turn, a TurnTrace, a list of traces or a ChatSession; received string "nope"/)
  })
})
