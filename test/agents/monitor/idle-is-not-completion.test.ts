import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { appendLines, lineTime, placeClaude, placeCodex } from './fake-home.js'
import { HOUR, MINUTE, createHarness } from './harness.js'
import type { Harness } from './harness.js'

/**
 * Seed 003 (ADR-0109, option B amended), driven through the whole monitor with a hand-moved clock
 * over recorded sessions of both agents: a quiet lull is `idle` and comes back without a reopening
 * or a notification; a day of silence is `completed` (reached through idle), and the weekend resume
 * reopens it with exactly one `session_reopened`.
 */

let harness: Harness | undefined
afterEach(() => {
  harness?.home.cleanup()
  harness = undefined
})

describe('monitor: idleness is not completion', () => {
  it('the weekend resume (one reopening) paired, in one run, with a quiet lull (none)', async () => {
    // Both sessions stop mid-turn: Codex after the prompt (task_started, user message), Claude after its prompt line.
    const codexPrefix = 9
    const claudePrefix = 4
    harness = createHarness(0)
    const h = harness
    const weekend = placeCodex(h.home, 'plain-turn', { lines: codexPrefix, sessionId: randomUUID() })
    const lull = placeClaude(h.home, 'permission-pending', { lines: claudePrefix })
    const weekendAt = lineTime(weekend.lines[codexPrefix - 1] ?? '')
    const lullAt = lineTime(lull.lines[claudePrefix - 1] ?? '')
    const start = Math.max(weekendAt, lullAt) + 1000
    h.at(start)
    await h.tick()
    expect(h.entry(weekend.key)).toMatchObject({ state: 'working', status: 'running', lastActivityAt: weekendAt })
    expect(h.entry(lull.key)).toMatchObject({ state: 'working', status: 'running', lastActivityAt: lullAt })

    // Five minutes of silence, not a second more: still running.
    h.at(lullAt + 5 * MINUTE)
    await h.tick()
    expect(h.entry(lull.key)?.status).toBe('running')

    // Past the live window: idle, non-terminal, and no notification.
    h.at(start + 6 * MINUTE)
    await h.tick()
    for (const key of [weekend.key, lull.key]) {
      expect(h.entry(key)).toMatchObject({ state: 'idle', status: 'idle', detail: 'quiet for over 5 min (last: running)' })
      expect(h.entry(key)?.endedBy).toBeUndefined()
    }

    // The lull ends: the model's reply and its tool call land. An ordinary change back to running.
    h.at(start + 10 * MINUTE)
    appendLines(lull, 4)
    const lullBack = await h.tick()
    expect(lullBack.map((event) => event.type)).toEqual(['session_changed'])
    expect(h.entry(lull.key)).toMatchObject({ state: 'working', status: 'running', detail: 'running Bash', lastActivityAt: start + 10 * MINUTE })

    // A day of silence on the Codex thread (counted from its last line): completed, by silence only.
    h.at(weekendAt + 24 * HOUR)
    await h.tick()
    expect(h.entry(weekend.key)?.status).toBe('idle')
    h.at(weekendAt + 24 * HOUR + 1)
    await h.tick()
    expect(h.entry(weekend.key)).toMatchObject({ state: 'ended', status: 'completed', endedBy: 'silence', detail: 'presumed ended: no transcript line for over 24 h' })

    // Monday: a new line. Running again, reported as exactly one reopening.
    const monday = weekendAt + 72 * HOUR
    h.at(monday)
    appendLines(weekend, 1)
    const resumed = (await h.tick()).filter((event) => event.type !== 'snapshot' && event.type !== 'session_removed' && event.entry.key === weekend.key)
    expect(resumed.map((event) => event.type)).toEqual(['session_changed', 'session_reopened'])
    expect(h.entry(weekend.key)).toMatchObject({ state: 'working', status: 'running', lastActivityAt: monday })
    expect(h.entry(weekend.key)?.endedBy).toBeUndefined()

    // More lines of the same turn, then its end: no further reopening.
    h.at(monday + 1000)
    appendLines(weekend)
    await h.tick()
    expect(h.entry(weekend.key)).toMatchObject({ state: 'ended', status: 'completed', endedBy: 'turn' })

    expect(h.count('session_reopened', weekend.key)).toBe(1)
    expect(h.count('session_reopened', lull.key)).toBe(0)
    expect(h.count('session_reopened')).toBe(1)
    expect(h.history(weekend.key)).toEqual(['working/running', 'idle/idle', 'ended/completed/silence', 'working/running', 'ended/completed/turn'])
    // The lull's session later goes quiet again and, three days on, is presumed ended: still no reopening.
    expect(h.history(lull.key)).toEqual(['working/running', 'idle/idle', 'working/running', 'idle/idle', 'ended/completed/silence'])
    // Nothing about the lull or the silence notified; the weekend's real completion notifies after the settle.
    expect(h.count('notification')).toBe(0)
    h.at(monday + 1000 + 10_000)
    await h.tick()
    const notes = h.events.filter((event) => event.type === 'notification')
    expect(notes.map((event) => (event.type === 'notification' ? [event.entry.key, event.reason] : []))).toEqual([[weekend.key, 'completed']])
  })

  it('an idle session that gets a line is running again, with no reopening and no notification', async () => {
    harness = createHarness(0)
    const h = harness
    const session = placeCodex(h.home, 'plain-turn', { lines: 9 })
    const lastAt = lineTime(session.lines[8] ?? '')
    h.at(lastAt + 1000)
    await h.tick()
    h.at(lastAt + 7 * MINUTE)
    await h.tick()
    expect(h.entry(session.key)?.status).toBe('idle')
    h.at(lastAt + 8 * MINUTE)
    appendLines(session, 1) // the agent's message: the turn goes on
    await h.tick()
    expect(h.entry(session.key)).toMatchObject({ state: 'working', status: 'running', lastActivityAt: lastAt + 8 * MINUTE })
    for (let step = 1; step <= 3; step += 1) {
      h.at(lastAt + 8 * MINUTE + step * 20_000)
      await h.tick()
    }
    expect(h.count('session_reopened')).toBe(0)
    expect(h.count('notification')).toBe(0)
  })

  it('a line that carries no state (metadata) neither reopens an ended session nor counts as activity', async () => {
    harness = createHarness(Date.parse('2026-11-30T00:20:00Z'))
    const h = harness
    const session = placeClaude(h.home, 'plain-turn')
    await h.tick()
    const before = h.entry(session.key)
    expect(before).toMatchObject({ state: 'ended', status: 'completed' })
    const { appendFileSync } = await import('node:fs')
    appendFileSync(session.path, `${JSON.stringify({ type: 'last-prompt', lastPrompt: 'Say hello', sessionId: session.sessionId })}\n`)
    h.at(h.now() + 30 * HOUR)
    const events = await h.tick()
    expect(events).toEqual([])
    expect(h.entry(session.key)).toEqual(before)
    expect(h.monitor.stats().fileReads).toBe(2)
  })

  it('a silent session whose reader already ended it keeps its own ending (a turn, not silence)', async () => {
    harness = createHarness(Date.parse('2026-11-30T00:20:00Z'))
    const h = harness
    const failed = placeCodex(h.home, 'api-error')
    await h.tick()
    h.at(h.now() + 48 * HOUR)
    await h.tick()
    expect(h.entry(failed.key)).toMatchObject({ state: 'ended', status: 'failed', endedBy: 'turn' })
    expect(h.count('session_changed')).toBe(0)
  })
})
