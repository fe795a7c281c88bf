import { afterEach, describe, expect, it } from 'vitest'
import { placeClaude, placeCodex, writeRegistry } from './fake-home.js'
import { createHarness } from './harness.js'
import type { Harness } from './harness.js'

/**
 * The first tick over a fake home of recorded sessions (both agents): one `snapshot`, one entry per
 * session, each reader's verdict passed through the monitor's rules, cwd and title from the readers.
 */

let harness: Harness | undefined
afterEach(() => {
  harness?.home.cleanup()
  harness = undefined
})

describe('monitor: the first tick', () => {
  it('lists every Claude Code and Codex session once, with its state, cwd and title', async () => {
    harness = createHarness(Date.parse('2026-11-30T00:14:00Z'))
    const h = harness
    const plain = placeClaude(h.home, 'plain-turn')
    const question = placeClaude(h.home, 'question-pending')
    const permission = placeClaude(h.home, 'permission-pending')
    writeRegistry(h.home, { pid: process.pid, sessionId: permission.sessionId, cwd: permission.cwd, status: 'waiting', waitingFor: 'permission prompt' })
    const apiError = placeClaude(h.home, 'api-error')
    const codexDone = placeCodex(h.home, 'plain-turn')
    const codexWorking = placeCodex(h.home, 'mid-turn')
    const codexAborted = placeCodex(h.home, 'aborted-turn')
    const codexFailed = placeCodex(h.home, 'api-error')

    const events = await h.tick()

    expect(events.map((event) => event.type)).toEqual(['snapshot'])
    const snapshot = events[0]
    expect(snapshot?.type === 'snapshot' ? snapshot.entries.map((entry) => entry.key) : []).toEqual(
      [plain, question, permission, apiError, codexDone, codexWorking, codexAborted, codexFailed].map((s) => s.key).sort(),
    )
    expect(h.entry(plain.key)).toMatchObject({ agent: 'claude-code', state: 'ended', status: 'completed', endedBy: 'turn', cwd: plain.cwd, title: 'Say hello', path: plain.path })
    expect(h.entry(question.key)).toMatchObject({ state: 'question', status: 'waiting_for_input', pendingDialog: { prompt: 'Which color do you prefer?' } })
    expect(h.entry(question.key)?.endedBy).toBeUndefined()
    expect(h.entry(permission.key)).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', detail: 'permission prompt (Bash)', pid: process.pid, activity: { kind: 'tool', label: 'Bash' } })
    expect(h.entry(apiError.key)).toMatchObject({ state: 'ended', status: 'failed', endedBy: 'turn' })
    expect(h.entry(codexDone.key)).toMatchObject({ agent: 'codex', state: 'ended', status: 'completed', endedBy: 'turn', cwd: codexDone.cwd, title: 'Say hello.' })
    expect(h.entry(codexWorking.key)).toMatchObject({ state: 'working', status: 'running', title: 'Wait two seconds, then tell me.' })
    expect(h.entry(codexAborted.key)).toMatchObject({ state: 'ended', status: 'stopped', detail: 'interrupted' })
    expect(h.entry(codexFailed.key)).toMatchObject({ state: 'ended', status: 'failed' })
    // Activity is the transcript's own time of its last state-bearing line, never the clock.
    expect(h.entry(plain.key)?.lastActivityAt).toBe(Date.parse('2026-11-30T00:12:21.748Z'))
    expect(h.count('notification')).toBe(0)
  })

  it('a live process that has not written a transcript yet is listed idle, and removed when it goes', async () => {
    harness = createHarness(Date.parse('2026-11-30T00:14:00Z'))
    const h = harness
    const sessionId = '5c0f9a4e-0000-4000-8000-000000000001'
    const registry = writeRegistry(h.home, { pid: process.pid, sessionId, cwd: '/work/fresh-project', status: 'idle', startedAt: h.now() - 1000 })
    await h.tick()
    expect(h.entry(`claude-code:${sessionId}`)).toMatchObject({ state: 'idle', status: 'idle', cwd: '/work/fresh-project', pid: process.pid, lastActivityAt: h.now() - 1000 })
    const { rmSync } = await import('node:fs')
    rmSync(registry)
    const events = await h.tick()
    expect(events.map((event) => event.type)).toEqual(['session_removed'])
    expect(h.entry(`claude-code:${sessionId}`)).toBeUndefined()
  })
})
