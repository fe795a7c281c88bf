import { appendFileSync, rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { deadPid, placeClaude, placeCodex, writeRegistry } from './fake-home.js'
import { HOUR, MINUTE, createHarness } from './harness.js'
import type { Harness } from './harness.js'

/**
 * Claude Code's registry (`~/.claude/sessions/<pid>.json`) as process evidence: a live pid is never
 * terminal however long it is quiet; a dead pid, or the entry going away, is lifecycle evidence.
 * Also: a vanished transcript is removed, and a file the reader cannot read is recorded, not thrown.
 */

let harness: Harness | undefined
afterEach(() => {
  harness?.home.cleanup()
  harness = undefined
})

const FIXTURE_END = Date.parse('2026-11-30T00:14:30Z')

describe('monitor: process evidence', () => {
  it('a live process is never completed: a finished turn waits for the next prompt, for days', async () => {
    harness = createHarness(FIXTURE_END)
    const h = harness
    const session = placeClaude(h.home, 'plain-turn')
    writeRegistry(h.home, { pid: process.pid, sessionId: session.sessionId, cwd: session.cwd, status: 'idle' })
    await h.tick()
    expect(h.entry(session.key)).toMatchObject({ state: 'needs_input', status: 'waiting_for_input', detail: 'the turn finished; waiting for your next prompt', pid: process.pid })
    h.at(FIXTURE_END + 3 * 24 * HOUR)
    await h.tick()
    expect(h.entry(session.key)).toMatchObject({ state: 'needs_input', status: 'waiting_for_input' })
    expect(h.entry(session.key)?.endedBy).toBeUndefined()
  })

  it('a live process quiet mid-turn is idle, never ended', async () => {
    harness = createHarness(FIXTURE_END)
    const h = harness
    const session = placeClaude(h.home, 'streaming')
    writeRegistry(h.home, { pid: process.pid, sessionId: session.sessionId, cwd: session.cwd, status: 'busy' })
    await h.tick()
    expect(h.entry(session.key)).toMatchObject({ state: 'working', status: 'running' })
    h.at(FIXTURE_END + 30 * HOUR)
    await h.tick()
    expect(h.entry(session.key)).toMatchObject({ state: 'idle', status: 'idle' })
  })

  it('the registry entry going away (a graceful exit) ends a session seen alive: stopped mid-turn', async () => {
    harness = createHarness(FIXTURE_END)
    const h = harness
    const session = placeClaude(h.home, 'streaming')
    const registry = writeRegistry(h.home, { pid: process.pid, sessionId: session.sessionId, cwd: session.cwd, status: 'busy' })
    await h.tick()
    rmSync(registry)
    h.at(FIXTURE_END + MINUTE)
    const events = await h.tick()
    expect(events.map((event) => event.type)).toEqual(['session_changed'])
    expect(h.entry(session.key)).toMatchObject({ state: 'ended', status: 'stopped', endedBy: 'process', detail: 'the process exited mid-turn' })
    expect(h.entry(session.key)?.pid).toBeUndefined()
  })

  it('a registry entry whose pid is dead (a killed CLI) ends the session; a finished turn stays completed', async () => {
    harness = createHarness(FIXTURE_END)
    const h = harness
    const waiting = placeClaude(h.home, 'permission-pending')
    const live = writeRegistry(h.home, { pid: process.pid, sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
    const done = placeClaude(h.home, 'question-answered')
    writeRegistry(h.home, { pid: deadPid(), sessionId: done.sessionId, cwd: done.cwd, status: 'idle' })
    await h.tick()
    expect(h.entry(waiting.key)?.status).toBe('waiting_for_approval')
    expect(h.entry(done.key)).toMatchObject({ state: 'ended', status: 'completed', endedBy: 'turn' })

    rmSync(live)
    writeRegistry(h.home, { pid: deadPid(), sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
    await h.tick()
    expect(h.entry(waiting.key)).toMatchObject({ state: 'ended', status: 'stopped', endedBy: 'process' })
  })

  it('a deleted transcript is session_removed; others are untouched', async () => {
    harness = createHarness(FIXTURE_END)
    const h = harness
    const kept = placeCodex(h.home, 'plain-turn')
    const deleted = placeCodex(h.home, 'tool-run')
    await h.tick()
    rmSync(deleted.path)
    const events = await h.tick()
    expect(events).toEqual([{ type: 'session_removed', previous: expect.objectContaining({ key: deleted.key, status: 'completed' }) }])
    expect(h.entry(kept.key)?.status).toBe('completed')
  })

  it('a line over the 16 MiB cap is skipped by the reader (issue 15 item 4): no error, the session reads on; the tick resolves', async () => {
    harness = createHarness(FIXTURE_END)
    const h = harness
    const session = placeCodex(h.home, 'mid-turn')
    const other = placeCodex(h.home, 'plain-turn')
    await h.tick()
    appendFileSync(session.path, `{"type":"event_msg","payload":{"type":"agent_message","message":"${'x'.repeat(17 * 1024 * 1024)}"}}\n`)
    await h.tick()
    expect(h.entry(session.key)?.error).toBeUndefined()
    expect(h.entry(session.key)).toMatchObject({ state: 'working', status: 'running' })
    expect(h.entry(other.key)?.error).toBeUndefined()
  })
})
