import { describe, expect, it } from 'vitest'
import { regenerateMismatch } from '../../src/testing/conversations/replay-check.js'
import { runConversation } from '../../src/testing/conversations/run-conversation.js'
import { REPLAY_CLOCK_OFFSET_MS, withShiftedWallClock } from '../../src/testing/conversations/shifted-wall-clock.js'
import { clockBot } from './fixtures/clock-bot.js'
import { shopBot } from './fixtures/shop-bot.js'

describe('the replay check', () => {
  it('passes a definition whose routes depend only on history, counting the turns it checked', async () => {
    const run = await runConversation(shopBot, [{ user: '/start' }, { user: 'hi' }, { user: 'order tea' }, { retry: true }, { event: 'confirm' }], { replayCheck: true })
    // /start, order tea and confirm: the agentic turn and the retry (already a replay) are not checked.
    expect(run.replayCheck).toEqual({ checked: 3, mismatches: [] })
    expect(run.turns.map((turn) => turn.reply)).toEqual(['Welcome! Type /help or order something.', 'I am the agent.', 'Confirm your tea?', 'Confirm your tea?', 'Ordered.'])
  })

  it('catches a route whose output depends on the clock, and leaves the global Date as it found it', async () => {
    const RealDate = Date
    const run = await runConversation(clockBot, [{ user: '/ping' }, { user: '/time' }], { replayCheck: true })
    expect(Date).toBe(RealDate)
    expect(run.replayCheck?.checked).toBe(2)
    expect(run.replayCheck?.mismatches).toHaveLength(1)
    const [mismatch] = run.replayCheck?.mismatches ?? []
    expect(mismatch).toMatchObject({ turn: 2, label: 'user "/time"', check: 'rerun' })
    expect(mismatch?.differences).toHaveLength(1)
    expect(mismatch?.differences[0]).toMatch(/^reply: "It is \d{4}-.*Z\." ≠ "It is \d{4}-.*Z\."$/)
  })

  it('catches a route whose output depends on hidden state', async () => {
    const run = await runConversation(clockBot, [{ user: '/hello' }], { replayCheck: true })
    expect(run.replayCheck?.mismatches).toEqual([{ turn: 1, label: 'user "/hello"', check: 'rerun', differences: [expect.stringMatching(/^reply: "Hello #\d+\." ≠ "Hello #\d+\."$/)] }])
  })

  it('says what a regenerate that did not replay changed', async () => {
    const run = await runConversation(shopBot, [{ user: '/start' }])
    const [turn] = run.turns
    if (turn?.trace === undefined) throw new Error('no trace')
    const mismatch = regenerateMismatch(turn, { trace: { ...turn.trace, replayed: false, toState: 'idle' }, reply: 'Hi', modelCalls: 1, snapshot: { ...turn.snapshot, state: 'idle' } })
    expect(mismatch?.differences).toEqual([
      'trace.replayed: true ≠ false (the decision was not served from the cache; the route ran again)',
      'trace.toState: "menu" ≠ "idle"',
      'reply: "Welcome! Type /help or order something." ≠ "Hi"',
      'model calls: 0 ≠ 1',
      'state: "menu" ≠ "idle"',
    ])
  })
})

describe('withShiftedWallClock', () => {
  it('shifts new Date(), Date.now() and Date() but not explicit dates, and restores Date after a rejection', async () => {
    const before = Date.now()
    const readings = await withShiftedWallClock(REPLAY_CLOCK_OFFSET_MS, async () => ({
      now: Date.now(),
      constructed: new Date().getTime(),
      called: Date(),
      explicit: new Date(0).getTime(),
      isDate: new Date() instanceof Date,
    }))
    expect(readings.now - before).toBeGreaterThanOrEqual(REPLAY_CLOCK_OFFSET_MS)
    expect(readings.constructed - before).toBeGreaterThanOrEqual(REPLAY_CLOCK_OFFSET_MS)
    expect(new Date(readings.called).getTime() - before).toBeGreaterThan(REPLAY_CLOCK_OFFSET_MS - 1000)
    expect(readings.explicit).toBe(0)
    expect(readings.isDate).toBe(true)
    const RealDate = Date
    await expect(withShiftedWallClock(1000, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(Date).toBe(RealDate)
    expect(Math.abs(Date.now() - new RealDate().getTime())).toBeLessThan(1000)
  })
})
