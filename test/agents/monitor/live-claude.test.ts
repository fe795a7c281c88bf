import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import type { MonitorEvent } from '../../../src/agents/monitor/monitor-events.js'
import { startAnthropicServer } from '../../support/anthropic-server.js'
import { CLAUDE_BIN, makeClaudeHome, poll, startInteractive } from '../../support/claude-cli.js'

/**
 * Live: the real Claude Code CLI (interactive, in a pty) against the scripted model server, watched
 * by a started monitor with the real clock. The session appears (its registry entry, before any
 * transcript), goes working on the prompt, then needs you at a Bash permission prompt: exactly one
 * `needs_you` notification, none while it worked. Killing the CLI then ends it by process evidence.
 * Bounded: under a minute, every process killed and the home removed.
 */

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.skipIf(!existsSync(CLAUDE_BIN))('monitor, live: a real Claude Code session', () => {
  it('appears, goes working, then needs input, with the right notifications', async () => {
    const home = makeClaudeHome('chatrail-monitor-live-')
    const server = await startAnthropicServer({
      turns: [{ content: [{ type: 'text', text: 'Creating it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'touch made.txt', description: 'Create made.txt' } }], delayMs: 1500 }],
    })
    const monitor = createMonitor({ home: home.home, codexHome: `${home.home}/.codex`, settleMs: 500, pollIntervalMs: 150 })
    const events: MonitorEvent[] = []
    monitor.subscribe((event) => events.push(event))
    cleanups.push(() => home.cleanup(), () => server.close(), () => monitor.stop())
    await monitor.start()
    expect(events).toEqual([{ type: 'snapshot', entries: [] }])

    const cli = startInteractive({ home, serverUrl: server.url })
    cleanups.push(() => cli.kill())
    await cli.waitFor('forshortcuts', { timeoutMs: 30_000 })
    const entryOf = (check: (entry: MonitorEntry) => boolean): MonitorEntry | undefined => monitor.getState().entries.find(check)
    const describeAll = () => JSON.stringify(monitor.getState().entries.map((e) => [e.key, e.state, e.status, e.detail]))

    const appeared = await poll('the session to appear', () => entryOf((e) => e.pid === cli.pid), 15_000, describeAll)
    expect(appeared).toMatchObject({ agent: 'claude-code', cwd: home.cwd })
    const key = appeared.key

    await cli.submit('Create a file')
    await poll('working', () => entryOf((e) => e.key === key && e.state === 'working'), 15_000, describeAll)
    const waiting = await poll('the permission prompt', () => entryOf((e) => e.key === key && e.status === 'waiting_for_approval' && e.detail === 'permission prompt (Bash)'), 20_000, describeAll)
    expect(waiting).toMatchObject({ state: 'needs_input', pid: cli.pid, title: 'Create a file', activity: { kind: 'tool', label: 'Bash' } })
    const note = await poll('the notification', () => events.find((event) => event.type === 'notification'), 5_000, describeAll)
    expect(note).toMatchObject({ type: 'notification', reason: 'needs_you', entry: { key, status: 'waiting_for_approval' } })

    // The session's path through the monitor: listed, working, waiting. Never a notification while it worked.
    const statuses = events.flatMap((event) => (event.type === 'session_added' || event.type === 'session_changed') && event.entry.key === key ? [event.entry.state] : [])
    expect(statuses[0]).toBe('idle')
    expect(statuses.indexOf('working')).toBeGreaterThan(0)
    expect(statuses.lastIndexOf('needs_input')).toBeGreaterThan(statuses.indexOf('working'))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(events.filter((event) => event.type === 'notification')).toHaveLength(1)

    // The process goes: lifecycle evidence, so the session ends (stopped: it was waiting on you).
    await cli.kill()
    const ended = await poll('the session to end', () => entryOf((e) => e.key === key && e.state === 'ended'), 10_000, describeAll)
    expect(ended).toMatchObject({ status: 'stopped', endedBy: 'process' })
    expect(events.filter((event) => event.type === 'notification')).toHaveLength(1)
  }, 60_000)
})
