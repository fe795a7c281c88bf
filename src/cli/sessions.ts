import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { createMonitor } from '../agents/monitor/create-monitor.js'
import type { Monitor } from '../agents/monitor/create-monitor.js'
import type { MonitorEvent } from '../agents/monitor/monitor-events.js'
import { DEFAULT_ENDED_WINDOW_MS } from '../agents/monitor/monitor-options.js'
import { sessionRows, sortByAttention, splitRecent, type SessionRow } from '../agents/monitor/session-rows.js'
import { sessionTableLines } from '../agents/monitor/session-table-text.js'
import { ChatrailError } from '../contract/errors.js'
import { terminalJson, terminalText } from '../contract/terminal-text.js'
import { opencodeMonitorOptions } from './sessions-opencode.js'
import { parseCommandArgs, usageErrorText } from './args.js'
import { colorEnabled, palette, type Palette } from './color.js'

/**
 * `chatrail sessions`: every local Claude Code and Codex session (chatrail/monitor), the ones that
 * need you first. One pass by default (a table, or `--json` entries); `--watch` keeps the table
 * current in place with Ink (loaded lazily: `src/` never imports it) and rings the bell and prints
 * a line on each notification. Exit codes: 0, or 2 for a usage error (an unreadable or empty home
 * is an empty table, never a failure).
 */

export const sessionsUsage = `usage: chatrail sessions [options]

Lists every local Claude Code and Codex session: agent, project, state, what it waits for, and
the last activity, the sessions that need you first. Sessions that ended more than a day ago are
left out unless --all is given.

options:
  --watch            keep the table current in place; ring the bell and print a line on each
                     notification (with --json: one JSON event per line)
  --json             print { entries, warnings } as JSON (warnings: folders skipped as unreadable)
  --home <dir>       the home to read (default: yours); Claude Code lives in <dir>/.claude
  --codex-home <dir> Codex's home (default: $CODEX_HOME, or <dir>/.codex when --home is given)
  --all              include sessions that ended more than a day ago
  --opencode-url <url> the OpenCode server whose sessions are listed with their live states
                     (default http://127.0.0.1:4096); while nothing answers there, the sessions
                     OpenCode stored under $XDG_DATA_HOME/opencode (or <home>/.local/share/opencode)
                     are listed as unknown, with no warning unless you named the URL
  --no-opencode-url  leave OpenCode out: no server asked, no stored session read
  -h, --help         show this help

examples:
  chatrail sessions                 the table, once
  chatrail sessions --watch         keep it current; the bell rings when a session needs you
  chatrail sessions --json --all | jq '.entries[] | select(.status == "failed") | .path'`

export interface SessionsIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  /** The terminal's width when stdout is one; else `$COLUMNS` when set; else lines are not cut. */
  columns?: number
  /** Colour the table's rows by what they ask of you (src/cli/color.ts decides it for the process). Default: no colour. */
  color?: boolean
}

const processIo: SessionsIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  ...(process.stdout.isTTY && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
  color: colorEnabled(process.stdout, process.env),
}

/** The command-table entry point (src/cli/main.ts). */
export function run(args: readonly string[]): Promise<number> {
  return runSessions(args, processIo)
}

/** Runs the command and resolves with its exit code; never calls `process.exit`. */
export async function runSessions(args: readonly string[], io: SessionsIo = processIo): Promise<number> {
  const parsed = parseCommandArgs(
    {
      command: 'sessions',
      options: {
        watch: { type: 'boolean' },
        json: { type: 'boolean' },
        home: { type: 'string' },
        'codex-home': { type: 'string' },
        all: { type: 'boolean' },
        'opencode-url': { type: 'string' },
        'no-opencode-url': { type: 'boolean' },
      },
    },
    args,
  )
  if (parsed.kind === 'help') {
    io.stdout(sessionsUsage)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(parsed.message)
    return 2
  }
  const { values } = parsed
  if (values['opencode-url'] !== undefined && values['no-opencode-url'] === true) {
    io.stderr(usageErrorText('sessions', '--opencode-url and --no-opencode-url contradict each other'))
    return 2
  }
  for (const flag of ['home', 'codex-home'] as const) {
    if (values[flag] === '') {
      io.stderr(usageErrorText('sessions', `--${flag} needs a directory`))
      return 2
    }
  }
  // A home or Codex home named on the command line must exist: a typo would otherwise list nothing.
  for (const flag of ['home', 'codex-home'] as const) {
    const dir = values[flag]
    const problem = dir === undefined ? undefined : directoryProblem(dir)
    if (problem !== undefined) {
      io.stderr(usageErrorText('sessions', `--${flag} ${problem}`))
      return 2
    }
  }
  const home = resolve(values.home ?? homedir())
  const codexHome = values['codex-home'] ?? (values.home === undefined ? io.env.CODEX_HOME : undefined) ?? join(home, '.codex')
  const hideOlderThanMs = values.all ? undefined : DEFAULT_ENDED_WINDOW_MS
  let monitor: Monitor
  try {
    monitor = createMonitor({ home, codexHome: resolve(codexHome), ...opencodeMonitorOptions(values, home, io.env) })
  } catch (error) {
    io.stderr(terminalText(`chatrail sessions: ${ChatrailError.isInstance(error) ? error.toString() : String(error)}`))
    return 2
  }
  if (values.watch) return watch(monitor, { json: values.json === true, hideOlderThanMs }, io)

  await monitor.tick()
  const now = Date.now()
  const state = monitor.getState()
  const entries = state.entries
  // Folders that could not be read are skipped, never fatal, and always said (issue 15 item 3).
  const warnings = [...state.skipped.map((path) => `skipped unreadable folder ${path}`), ...state.warnings]
  const { recent, older } = hideOlderThanMs === undefined ? { recent: [...entries], older: [] } : splitRecent(entries, now, hideOlderThanMs)
  if (values.json) {
    // Titles and paths come from files: nothing printed reaches the terminal as a control sequence.
    io.stdout(terminalJson(JSON.stringify({ entries: sortByAttention(recent), warnings }, null, 2)))
    return 0
  }
  const paint = palette(io.color === true)
  if (recent.length === 0 && older.length === 0) {
    io.stdout(terminalText(`No Claude Code or Codex sessions under ${join(home, '.claude')} or ${join(codexHome, 'sessions')}.`))
  } else if (recent.length === 0) {
    // every session ended long ago: an empty table would read as "nothing found"
    io.stdout(`No session active in the last day; ${older.length === 1 ? '1 older session is' : `${older.length} older sessions are`} hidden (--all shows ${older.length === 1 ? 'it' : 'them'}).`)
  } else {
    const width = terminalWidth(io)
    const rows = sessionRows(recent, now)
    const [header = '', ...lines] = sessionTableLines(rows, width === undefined ? {} : { width })
    io.stdout([paint.dim(header), ...lines.map((line, index) => paintRow(line, rows[index], paint))].join('\n'))
    if (older.length > 0) io.stdout(paint.dim(`(${older.length === 1 ? '1 session that ended more than a day ago is' : `${older.length} sessions that ended more than a day ago are`} hidden; --all shows them)`))
  }
  for (const warning of warnings) io.stdout(`${paint.yellow('warning:')} ${terminalText(warning, { singleLine: true })}`)
  return 0
}

/** `--watch`: Ink's live table, or with `--json` one JSON event per line; runs until Ctrl-C (or `q`). */
async function watch(monitor: Monitor, options: { json: boolean; hideOlderThanMs: number | undefined }, io: SessionsIo): Promise<number> {
  if (options.json) {
    monitor.subscribe((event) => io.stdout(terminalJson(JSON.stringify(event))))
    await monitor.start()
    await new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    await monitor.stop()
    return 0
  }
  const ring = (event: MonitorEvent): void => {
    if (event.type === 'notification') process.stdout.write('\u0007')
  }
  monitor.subscribe(ring)
  await monitor.start()
  const { renderSessionsWatch } = await import('../../renderers/ink/index.js')
  const instance = renderSessionsWatch(monitor, options.hideOlderThanMs === undefined ? {} : { hideOlderThanMs: options.hideOlderThanMs })
  await instance.waitUntilExit()
  await monitor.stop()
  return 0
}


/** A table row coloured as the `--watch` view colours it: needs-you bold yellow, failed red, finished green, active cyan, quiet dim. */
function paintRow(line: string, row: SessionRow | undefined, paint: Palette): string {
  if (row === undefined) return line
  if (row.state === 'failed') return paint.red(line)
  switch (row.attention) {
    case 'needs_you':
      return paint.bold(paint.yellow(line))
    case 'finished':
      return paint.green(line)
    case 'active':
      return paint.cyan(line)
    case 'quiet':
      return paint.dim(line)
  }
}

/** The width the table must fit: the terminal's, else `$COLUMNS` (as `ls` and `ps` read it), else none. */
function terminalWidth(io: SessionsIo): number | undefined {
  if (io.columns !== undefined) return io.columns
  const fromEnv = Number(io.env.COLUMNS)
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined
}

/** `does not exist: <path>` or `is not a directory: <path>`, else `undefined`. */
function directoryProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : `is not a directory: ${resolve(dir)}`
  } catch {
    return `does not exist: ${resolve(dir)}`
  }
}
