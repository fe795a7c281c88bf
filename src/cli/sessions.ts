import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createMonitor } from '../agents/monitor/create-monitor.js'
import type { Monitor } from '../agents/monitor/create-monitor.js'
import type { MonitorEvent } from '../agents/monitor/monitor-events.js'
import { DEFAULT_ENDED_WINDOW_MS, DEFAULT_LIVE_WINDOW_MS } from '../agents/monitor/monitor-options.js'
import { listOpencodeSessions } from '../agents/monitor/opencode-sessions.js'
import { sessionRows, sortByAttention, splitRecent } from '../agents/monitor/session-rows.js'
import { sessionTableLines } from '../agents/monitor/session-table-text.js'
import { ChatrailError } from '../contract/errors.js'

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
  --opencode-url <url> also list the sessions of this running OpenCode server (e.g.
                     http://127.0.0.1:4096). One pass: when it cannot be read, OpenCode's stored
                     sessions under <home>/.local/share/opencode instead, as unknown
  -h, --help         show this help`

export interface SessionsIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
}

const processIo: SessionsIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
}

/** The command-table entry point (src/cli/main.ts). */
export function run(args: readonly string[]): Promise<number> {
  return runSessions(args, processIo)
}

/** Runs the command and resolves with its exit code; never calls `process.exit`. */
export async function runSessions(args: readonly string[], io: SessionsIo = processIo): Promise<number> {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...args],
      allowPositionals: false,
      options: {
        watch: { type: 'boolean' },
        json: { type: 'boolean' },
        home: { type: 'string' },
        'codex-home': { type: 'string' },
        all: { type: 'boolean' },
        'opencode-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (error) {
    io.stderr(`chatrail sessions: ${error instanceof Error ? error.message : String(error)}\n\n${sessionsUsage}`)
    return 2
  }
  if (values.help) {
    io.stdout(sessionsUsage)
    return 0
  }
  for (const flag of ['home', 'codex-home'] as const) {
    if (values[flag] === '') {
      io.stderr(`chatrail sessions: --${flag} needs a directory\n\n${sessionsUsage}`)
      return 2
    }
  }
  const home = resolve(values.home ?? homedir())
  const codexHome = values['codex-home'] ?? (values.home === undefined ? io.env.CODEX_HOME : undefined) ?? join(home, '.codex')
  const hideOlderThanMs = values.all ? undefined : DEFAULT_ENDED_WINDOW_MS
  let monitor: Monitor
  try {
    // Watching follows the OpenCode server as a monitor source; one pass also falls back to its files (below).
    monitor = createMonitor({ home, codexHome: resolve(codexHome), ...(values.watch && values['opencode-url'] !== undefined ? { opencodeUrl: values['opencode-url'] } : {}) })
  } catch (error) {
    io.stderr(`chatrail sessions: ${ChatrailError.isInstance(error) ? error.toString() : String(error)}`)
    return 2
  }
  if (values.watch) return watch(monitor, { json: values.json === true, hideOlderThanMs }, io)

  await monitor.tick()
  const now = Date.now()
  const state = monitor.getState()
  // OpenCode's run state lives in its server: its sessions come from there (issue 18).
  const opencode = values['opencode-url'] === undefined ? undefined : await listOpencodeSessions({ baseUrl: values['opencode-url'], now, liveWindowMs: DEFAULT_LIVE_WINDOW_MS, endedWindowMs: DEFAULT_ENDED_WINDOW_MS, dataDir: opencodeDataDir(home, values.home === undefined ? io.env : {}) })
  const entries = [...state.entries, ...(opencode?.entries ?? [])]
  // Folders that could not be read are skipped, never fatal, and always said (issue 15 item 3).
  const warnings = [...state.skipped.map((path) => `skipped unreadable folder ${path}`), ...state.warnings, ...(opencode?.warnings ?? [])]
  const { recent, older } = hideOlderThanMs === undefined ? { recent: [...entries], older: [] } : splitRecent(entries, now, hideOlderThanMs)
  if (values.json) {
    io.stdout(JSON.stringify({ entries: sortByAttention(recent), warnings }, null, 2))
    return 0
  }
  if (recent.length === 0 && older.length === 0) {
    io.stdout(`No Claude Code or Codex sessions under ${join(home, '.claude')} or ${join(codexHome, 'sessions')}.`)
  } else {
    io.stdout(sessionTableLines(sessionRows(recent, now)).join('\n'))
    if (older.length > 0) io.stdout(`(${older.length === 1 ? '1 session that ended more than a day ago is' : `${older.length} sessions that ended more than a day ago are`} hidden; --all shows them)`)
  }
  for (const warning of warnings) io.stdout(`warning: ${warning}`)
  return 0
}

/** `--watch`: Ink's live table, or with `--json` one JSON event per line; runs until Ctrl-C (or `q`). */
async function watch(monitor: Monitor, options: { json: boolean; hideOlderThanMs: number | undefined }, io: SessionsIo): Promise<number> {
  if (options.json) {
    monitor.subscribe((event) => io.stdout(JSON.stringify(event)))
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

/** OpenCode's data folder: `$XDG_DATA_HOME/opencode` (not when `--home` is given), else `<home>/.local/share/opencode`. */
function opencodeDataDir(home: string, env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'opencode')
}
