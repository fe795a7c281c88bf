import { randomUUID } from 'node:crypto'
import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { SessionsTable, SessionsWatch } from '../../../renderers/ink/sessions-table.js'
import { frameText, waitForFrame } from '../../ink/frames.js'
import { appendLines, lastLineTime, placeCodex } from './fake-home.js'
import { createHarness } from './harness.js'
import type { Harness } from './harness.js'

/** The Ink sessions view as strings: the table, attention first, and the live view over a monitor. */

const NOW = Date.parse('2026-11-30T12:00:00Z')

function entry(patch: Partial<MonitorEntry> & Pick<MonitorEntry, 'key' | 'state' | 'status'>): MonitorEntry {
  return { agent: 'codex', sessionId: patch.key, path: `/x/${patch.key}`, lastActivityAt: NOW - 60_000, ...patch }
}

let harness: Harness | undefined
afterEach(() => {
  cleanup()
  harness?.home.cleanup()
  harness = undefined
})

describe('<SessionsTable>', () => {
  it('renders the columns with the session that needs you first, and says what it hides', () => {
    const entries = [
      entry({ key: 'codex:a', state: 'working', status: 'running', cwd: '/w/api', lastActivityAt: NOW - 5_000 }),
      entry({ key: 'claude-code:b', agent: 'claude-code', state: 'question', status: 'waiting_for_input', cwd: '/w/web', pendingDialog: { toolId: 't', kind: 'question', prompt: 'Which color?', options: [], multiSelect: false, answerable: true }, lastActivityAt: NOW - 120_000 }),
      entry({ key: 'codex:c', state: 'ended', status: 'failed', endedBy: 'turn', cwd: '/w/cli', detail: 'rate limited', lastActivityAt: NOW - 3_600_000 }),
      entry({ key: 'codex:d', state: 'ended', status: 'completed', endedBy: 'turn', cwd: '/w/old', lastActivityAt: NOW - 3 * 86_400_000 }),
    ]
    const r = render(<SessionsTable entries={entries} now={NOW} hideOlderThanMs={86_400_000} />)
    expect(frameText(r).split('\n')).toEqual([
      'AGENT   PROJECT  STATE     WAITING FOR   DETAIL        ACTIVE',
      'claude  web      question  Which color?                2m ago',
      'codex   cli      failed                  rate limited  1h ago',
      'codex   api      running                               5s ago',
      '1 ended more than a day ago, hidden (--all shows them)',
    ])
  })

  it('says so when there is nothing to show', () => {
    const r = render(<SessionsTable entries={[]} now={NOW} />)
    expect(frameText(r)).toBe('AGENT  PROJECT  STATE  ACTIVE\nno sessions')
  })
})

describe('<SessionsWatch>', () => {
  it('follows the monitor: the row changes in place, and each notification is pinned once under the table', async () => {
    harness = createHarness(0, { settleMs: 1000 })
    const h = harness
    await h.tick()
    const thread = placeCodex(h.home, 'plain-turn', { lines: 9, sessionId: randomUUID() })
    const t = lastLineTime(thread.lines.slice(0, 9)) + 500
    h.at(t)
    await h.tick()
    const r = render(<SessionsWatch monitor={h.monitor} clock={() => h.now()} />)
    await waitForFrame(r, (frame) => /codex\s.*\srunning\s/.test(frame))

    h.at(t + 2000)
    appendLines(thread)
    await h.tick()
    await waitForFrame(r, (frame) => /codex\s.*\scompleted\s/.test(frame))
    h.at(t + 4000)
    await h.tick()
    const frame = await waitForFrame(r, (text) => text.includes('▲ completed: codex'))
    expect(frame.split('\n').slice(-2)).toEqual([expect.stringMatching(/^▲ completed: codex \S+ — Say hello\.$/), 'watching 1 session · q quits'])
    h.at(t + 60_000)
    await h.tick()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(frameText(r).split('\n').filter((line) => line.startsWith('▲'))).toHaveLength(1)
  })
})
