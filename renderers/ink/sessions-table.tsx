import { Box, Text, render, useApp, useInput, useStdin, useStdout } from 'ink'
import type { Instance, RenderOptions } from 'ink'
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import type { Monitor } from '../../src/agents/monitor/create-monitor.js'
import type { Attention, MonitorEntry } from '../../src/agents/monitor/monitor-entry.js'
import type { MonitorEvent } from '../../src/agents/monitor/monitor-events.js'
import { sessionRows, splitRecent, stateLabel } from '../../src/agents/monitor/session-rows.js'
import { sessionTableLines } from '../../src/agents/monitor/session-table-text.js'
import { terminalText } from '../../src/contract/terminal-text.js'

const COLORS: Record<Attention, string> = { needs_you: 'yellow', finished: 'green', active: 'cyan', quiet: 'gray' }

interface TableProps {
  entries: readonly MonitorEntry[]
  now: number
  /** Hide sessions that ended longer ago than this (and say how many). */
  hideOlderThanMs?: number
  /** The terminal's width: cells are cut with `…` so no line wraps (default: no limit). */
  width?: number
}

/** The `chatrail sessions` table: the shared text columns, each row colored by what it asks of you. */
export function SessionsTable({ entries, now, hideOlderThanMs, width }: TableProps) {
  const { recent, older } = hideOlderThanMs === undefined ? { recent: [...entries], older: [] } : splitRecent(entries, now, hideOlderThanMs)
  const rows = sessionRows(recent, now)
  const [header, ...lines] = sessionTableLines(rows, width === undefined ? {} : { width })
  return (
    <Box flexDirection="column">
      <Text dimColor>{header}</Text>
      {rows.map((row, index) => (
        <Text key={row.key} color={row.state === 'failed' ? 'red' : COLORS[row.attention]} bold={row.attention === 'needs_you'}>
          {lines[index]}
        </Text>
      ))}
      {rows.length === 0 ? <Text dimColor>no sessions</Text> : null}
      {older.length > 0 ? <Text dimColor>{older.length} ended more than a day ago, hidden (--all shows them)</Text> : null}
    </Box>
  )
}

interface Notice {
  id: number
  text: string
}

/** Notifications kept pinned under the table, the latest last. */
const PINNED_NOTICES = 3

interface WatchProps {
  monitor: Monitor
  hideOlderThanMs?: number
  /** Epoch ms now, for the ages (default `Date.now`); the view re-reads it every second. */
  clock?: () => number
}

/**
 * The live view over a started monitor: the table in place, fitted to the terminal's width (and
 * refitted on resize), the latest notifications pinned under it (part of the live frame, so
 * neither the table's redraws nor a long table scroll them away); `q` quits.
 */
export function SessionsWatch({ monitor, hideOlderThanMs, clock = Date.now }: WatchProps) {
  const subscribe = useCallback((changed: () => void) => monitor.subscribe(() => changed()), [monitor])
  const state = useSyncExternalStore(subscribe, monitor.getState)
  const [now, setNow] = useState(clock)
  const [notices, setNotices] = useState<Notice[]>([])
  const { exit } = useApp()
  const { isRawModeSupported } = useStdin()
  const { stdout } = useStdout()
  const [columns, setColumns] = useState(stdout.columns > 0 ? stdout.columns : undefined)
  useEffect(() => {
    const onResize = (): void => setColumns(stdout.columns > 0 ? stdout.columns : undefined)
    stdout.on('resize', onResize)
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout])
  useEffect(() => {
    const timer = setInterval(() => setNow(clock()), 1000)
    return () => clearInterval(timer)
  }, [clock])
  useEffect(
    () =>
      monitor.subscribe((event) => {
        if (event.type === 'notification') setNotices((list) => [...list.slice(-(PINNED_NOTICES - 1)), { id: (list.at(-1)?.id ?? -1) + 1, text: noticeText(event) }])
      }),
    [monitor],
  )
  useInput((input) => {
    if (input === 'q') exit()
  }, { isActive: isRawModeSupported === true })
  return (
    <Box flexDirection="column">
      <SessionsTable entries={state.entries} now={now} {...(hideOlderThanMs === undefined ? {} : { hideOlderThanMs })} {...(columns === undefined ? {} : { width: columns })} />
      {notices.map((notice) => (
        <Text key={notice.id} color="yellow" wrap="truncate-end">
          {terminalText(notice.text, { singleLine: true })}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        watching {state.entries.length} session{state.entries.length === 1 ? '' : 's'} · q quits
      </Text>
    </Box>
  )
}

/** `▲ needs you: claude proj — permission prompt (Bash)`: one line per notification. */
export function noticeText(event: Extract<MonitorEvent, { type: 'notification' }>): string {
  const entry = event.entry
  const who = `${entry.agent === 'claude-code' ? 'claude' : entry.agent} ${entry.cwd?.split('/').filter(Boolean).at(-1) ?? entry.sessionId}`
  const what = event.reason === 'needs_you' ? 'needs you' : stateLabel(entry)
  const why = entry.pendingDialog?.prompt ?? entry.detail ?? entry.title
  return `▲ ${what}: ${who}${why === undefined ? '' : ` — ${why.split('\n')[0] ?? ''}`}`
}

/** Mounts `<SessionsWatch>` (for callers without JSX, such as the `chatrail` CLI) and returns Ink's instance. */
export function renderSessionsWatch(monitor: Monitor, options: { hideOlderThanMs?: number; ink?: RenderOptions } = {}): Instance {
  return render(<SessionsWatch monitor={monitor} {...(options.hideOlderThanMs === undefined ? {} : { hideOlderThanMs: options.hideOlderThanMs })} />, options.ink)
}
