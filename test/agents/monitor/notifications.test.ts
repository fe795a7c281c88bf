import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../../src/agents/monitor/monitor-events.js'
import { appendLines, lineTime, placeClaude, placeCodex, writeRegistry } from './fake-home.js'
import { HOUR, MINUTE, createHarness } from './harness.js'
import type { Harness } from './harness.js'

/**
 * Seed 002's notification rules through the whole monitor: sessions older than the watch are
 * baselined silently, active states never notify, a finished or needs-you state notifies once it has
 * held for `settleMs`, once per session and activity.
 */

let harness: Harness | undefined
afterEach(() => {
  harness?.home.cleanup()
  harness = undefined
})

const SETTLE = 10_000

function notes(events: readonly MonitorEvent[]): Array<[string, string]> {
  return events.flatMap((event) => (event.type === 'notification' ? [[event.entry.key, event.reason] as [string, string]] : []))
}

describe('monitor: notifications', () => {
  it('baseline, settle, once: only what happened after the watch started, after it held', async () => {
    const watchStart = Date.parse('2026-11-30T00:00:00Z')
    harness = createHarness(watchStart, { settleMs: SETTLE })
    const h = harness
    // Before the watch: a finished thread and a question still open an hour ago.
    const oldDone = placeCodex(h.home, 'plain-turn', { sessionId: randomUUID(), shiftMs: -2 * HOUR })
    const oldQuestion = placeClaude(h.home, 'question-pending', { shiftMs: -2 * HOUR })
    await h.tick()
    expect(h.entry(oldQuestion.key)?.state).toBe('question')

    // After it: a thread that finishes, one still running, and a Claude permission prompt.
    const done = placeCodex(h.home, 'plain-turn')
    const running = placeCodex(h.home, 'mid-turn')
    const waiting = placeClaude(h.home, 'permission-pending')
    writeRegistry(h.home, { pid: process.pid, sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
    const seen = lineTime(waiting.lines.at(-1) ?? '') + 1000
    h.at(seen)
    const added = await h.tick()
    expect(added.map((event) => event.type)).toEqual(['session_added', 'session_added', 'session_added'])
    expect(notes(added)).toEqual([])

    h.at(seen + SETTLE - 1)
    expect(notes(await h.tick())).toEqual([])
    h.at(seen + SETTLE)
    const expected = [
      [done.key, 'completed'],
      [waiting.key, 'needs_you'],
    ].sort()
    expect(notes(await h.tick()).sort()).toEqual(expected)
    for (let step = 1; step <= 5; step += 1) {
      h.at(seen + SETTLE + step * MINUTE)
      await h.tick()
    }
    expect(notes(h.events).sort()).toEqual(expected)
    expect(notes(h.events).some(([key]) => key === running.key || key === oldDone.key || key === oldQuestion.key)).toBe(false)
  })

  it('a state that does not hold for settleMs never notifies; the next one that holds does, once', async () => {
    harness = createHarness(0, { settleMs: SETTLE })
    const h = harness
    // resume.rollout.jsonl holds two turns of one thread: cut it after the first task_complete.
    const thread = placeCodex(h.home, 'resume', { lines: 0 })
    const firstEnd = thread.lines.findIndex((line) => line.includes('"task_complete"')) + 1
    const secondStart = thread.lines.findIndex((line, index) => index >= firstEnd && line.includes('"task_started"')) + 1
    h.at(lineTime(thread.lines[0] ?? '') - MINUTE)
    await h.tick()

    const t = lineTime(thread.lines[firstEnd - 1] ?? '') + 500
    h.at(t)
    appendLines(thread, firstEnd)
    await h.tick()
    expect(h.entry(thread.key)).toMatchObject({ state: 'ended', status: 'completed' })
    h.at(t + 4000)
    appendLines(thread, secondStart - firstEnd) // the next prompt, 4 s later: running again
    await h.tick()
    expect(h.entry(thread.key)).toMatchObject({ state: 'working', status: 'running' })
    h.at(t + 60_000)
    await h.tick()
    expect(notes(h.events)).toEqual([])

    h.at(t + 70_000)
    appendLines(thread)
    await h.tick()
    expect(h.entry(thread.key)?.status).toBe('completed')
    h.at(t + 70_000 + SETTLE)
    await h.tick()
    h.at(t + 70_000 + SETTLE + HOUR)
    await h.tick()
    expect(notes(h.events)).toEqual([[thread.key, 'completed']])
    // The quick finish-and-resume is a reopening all the same (the turn was terminal).
    expect(h.count('session_reopened', thread.key)).toBe(1)
  })

  it('a status change without new activity does not notify again (waiting, then the process is killed)', async () => {
    harness = createHarness(Date.parse('2026-11-30T00:10:00Z'), { settleMs: SETTLE })
    const h = harness
    await h.tick()
    const waiting = placeClaude(h.home, 'permission-pending')
    const registry = writeRegistry(h.home, { pid: process.pid, sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
    const seen = lineTime(waiting.lines.at(-1) ?? '') + 1000
    h.at(seen)
    await h.tick()
    h.at(seen + SETTLE)
    await h.tick()
    const { rmSync } = await import('node:fs')
    rmSync(registry)
    h.at(seen + SETTLE + MINUTE)
    await h.tick()
    expect(h.entry(waiting.key)).toMatchObject({ state: 'ended', status: 'stopped', endedBy: 'process' })
    h.at(seen + SETTLE + 2 * MINUTE)
    await h.tick()
    expect(notes(h.events)).toEqual([[waiting.key, 'needs_you']])
  })
})
