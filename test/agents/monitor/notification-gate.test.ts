import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { BASELINE_SLACK_MS, gateNotification, notificationReason } from '../../../src/agents/monitor/notification-gate.js'
import type { NotificationTrack } from '../../../src/agents/monitor/notification-gate.js'

/** The gate as a pure function: which states notify, the baseline, the settle, the dedupe. */

const WATCH = 1_000_000
const SETTLE = 10_000

function entry(patch: Partial<MonitorEntry>): MonitorEntry {
  return { key: 'codex:x', agent: 'codex', sessionId: 'x', path: '/x', state: 'ended', status: 'completed', endedBy: 'turn', lastActivityAt: WATCH + 5000, ...patch }
}

const fresh: NotificationTrack = { episode: 0, episodeSince: WATCH + 5000 }

describe('notificationReason', () => {
  it.each([
    [{ state: 'working', status: 'running' }, undefined],
    [{ state: 'working', status: 'streaming' }, undefined],
    [{ state: 'idle', status: 'idle' }, undefined],
    [{ state: 'ended', status: 'completed', endedBy: 'silence' }, undefined],
    [{ state: 'needs_input', status: 'waiting_for_approval' }, 'needs_you'],
    [{ state: 'question', status: 'waiting_for_input' }, 'needs_you'],
    [{ state: 'needs_input', status: 'blocked' }, 'needs_you'],
    [{ state: 'ended', status: 'failed', endedBy: 'turn' }, 'failed'],
    [{ state: 'ended', status: 'stopped', endedBy: 'process' }, 'stopped'],
    [{ state: 'needs_input', status: 'unknown' }, 'quiet'],
  ] as const)('%o → %s', (patch, reason) => {
    expect(notificationReason(entry(patch))).toBe(reason)
  })
})

describe('gateNotification', () => {
  it('waits for the settle, then notifies once', () => {
    const early = gateNotification({ entry: entry({}), track: fresh, now: WATCH + 5000 + SETTLE - 1, watchStartedAt: WATCH, settleMs: SETTLE })
    expect(early.notify).toBeUndefined()
    const due = gateNotification({ entry: entry({}), track: early.track, now: WATCH + 5000 + SETTLE, watchStartedAt: WATCH, settleMs: SETTLE })
    expect(due.notify).toBe('completed')
    const again = gateNotification({ entry: entry({}), track: due.track, now: WATCH + 10 * SETTLE, watchStartedAt: WATCH, settleMs: SETTLE })
    expect(again.notify).toBeUndefined()
  })

  it('baselines activity from before the watch (minus the slack), silently and for good', () => {
    const old = entry({ lastActivityAt: WATCH - BASELINE_SLACK_MS - 1 })
    const first = gateNotification({ entry: old, track: fresh, now: WATCH + 60_000, watchStartedAt: WATCH, settleMs: SETTLE })
    expect(first.notify).toBeUndefined()
    const changed = { ...first.track, episode: 1, episodeSince: WATCH + 70_000 }
    expect(gateNotification({ entry: { ...old, status: 'stopped' }, track: changed, now: WATCH + 200_000, watchStartedAt: WATCH, settleMs: SETTLE }).notify).toBeUndefined()
    const justBefore = entry({ lastActivityAt: WATCH - BASELINE_SLACK_MS + 1 })
    expect(gateNotification({ entry: justBefore, track: fresh, now: WATCH + 60_000, watchStartedAt: WATCH, settleMs: SETTLE }).notify).toBe('completed')
  })

  it('property: over any run of ticks, at most one notification per episode and per activity, never for active states', () => {
    const step = fc.record({
      advance: fc.integer({ min: 0, max: 30_000 }),
      status: fc.constantFrom('running', 'completed', 'waiting_for_approval', 'idle', 'failed' as const),
      newActivity: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let now = WATCH
        let activity = WATCH
        let track: NotificationTrack = { episode: 0, episodeSince: WATCH }
        let previous: MonitorEntry | undefined
        const told: Array<{ episode: number; activity: number; status: string }> = []
        for (const s of steps) {
          now += s.advance
          if (s.newActivity) activity = now
          const state = s.status === 'running' ? 'working' : s.status === 'idle' ? 'idle' : s.status === 'waiting_for_approval' ? 'needs_input' : 'ended'
          const next = entry({ state, status: s.status, lastActivityAt: activity, ...(state === 'ended' ? { endedBy: 'turn' as const } : { endedBy: undefined }) })
          if (previous !== undefined && (previous.status !== next.status || previous.state !== next.state)) track = { ...track, episode: track.episode + 1, episodeSince: now }
          const result = gateNotification({ entry: next, track, now, watchStartedAt: WATCH, settleMs: SETTLE })
          if (result.notify !== undefined) {
            told.push({ episode: track.episode, activity, status: s.status })
            if (now - track.episodeSince < SETTLE) return false
          }
          track = result.track
          previous = next
        }
        const episodes = new Set(told.map((t) => t.episode))
        const activities = new Set(told.map((t) => t.activity))
        return episodes.size === told.length && activities.size === told.length && told.every((t) => t.status !== 'running' && t.status !== 'idle')
      }),
    )
  })
})
