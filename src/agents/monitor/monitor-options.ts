import { join } from 'node:path'
import { ChatrailError, markErrorClass } from '../../contract/errors.js'
import type { OpencodeAuth } from '../opencode/http-client.js'

export interface MonitorOptions {
  /** The user's home directory: Claude Code keeps its sessions in `<home>/.claude`. Required, never guessed. */
  home: string
  /** `CODEX_HOME` (default `<home>/.codex`): rollouts are under `<codexHome>/sessions`. */
  codexHome?: string
  /**
   * An OpenCode server (`opencode serve`), e.g. `http://127.0.0.1:4096`: its sessions are listed too,
   * with their live states; while it does not answer, the sessions in `opencodeDataDir` (state
   * `unknown`). Not probed unless given (`chatrail sessions` passes `http://127.0.0.1:4096`).
   */
  opencodeUrl?: string
  /** OpenCode's data folder, read while the server is down. Default `<home>/.local/share/opencode`. */
  opencodeDataDir?: string
  /**
   * `true`: nothing listening at `opencodeUrl` is normal (OpenCode not running), not noted in
   * `warnings`; other failures still are. Default `false`: a server that stops answering is noted.
   */
  opencodeOptional?: boolean
  /**
   * Basic auth for `opencodeUrl`. Default: `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME`
   * from `process.env`; `null`: none (what `chatrail sessions` passes for the default URL it was not
   * given, where anyone may be listening). Whatever it is, a loopback server whose socket another
   * user owns is never asked (Linux; noted in `warnings`).
   */
  opencodeAuth?: OpencodeAuth | null
  /** Silence after which a running or streaming session reads `idle` (non-terminal). Default 5 min. */
  liveWindowMs?: number
  /** Silence after which a session without a live process is presumed ended (`completed`). Default 24 h. */
  endedWindowMs?: number
  /** How long a needs-you or finished state must hold before it notifies. Default 10 s. */
  settleMs?: number
  /** Epoch ms now; inject one to drive time in tests. Default `Date.now`. */
  clock?: () => number
  /** Ticks of the polling fallback (and of the time-based rules) while started. Default 2 s. */
  pollIntervalMs?: number
  /** Files open at once, at most (transcripts, registry files, directory listings). Default 16. */
  maxOpenFiles?: number
  /** Use file-system events to tick early while started (polling always runs). Default true. */
  watch?: boolean
}

export interface ResolvedMonitorOptions {
  home: string
  codexHome: string
  opencodeUrl?: string
  opencodeDataDir: string
  opencodeOptional: boolean
  opencodeAuth?: OpencodeAuth | null
  liveWindowMs: number
  endedWindowMs: number
  settleMs: number
  clock: () => number
  pollIntervalMs: number
  maxOpenFiles: number
  watch: boolean
}

/** Options `createMonitor` cannot run with; `option` names the one to fix. */
export class MonitorOptionsError extends ChatrailError {
  readonly option: string

  constructor(option: string, message: string, hint: string) {
    super({ code: 'MONITOR_OPTIONS', message: `createMonitor: ${message}`, hint })
    this.name = 'MonitorOptionsError'
    this.option = option
  }

  static override isInstance = markErrorClass(MonitorOptionsError, 'MonitorOptionsError')
}

export const DEFAULT_LIVE_WINDOW_MS = 300_000
export const DEFAULT_ENDED_WINDOW_MS = 86_400_000
export const DEFAULT_SETTLE_MS = 10_000
export const DEFAULT_POLL_INTERVAL_MS = 2_000
export const DEFAULT_MAX_OPEN_FILES = 16

/** Fills defaults and checks every option; throws `MonitorOptionsError` naming the first bad one. */
export function resolveMonitorOptions(options: MonitorOptions): ResolvedMonitorOptions {
  if (typeof options.home !== 'string' || options.home === '') {
    throw new MonitorOptionsError('home', `home must be the user's home directory (got ${JSON.stringify(options.home)})`, 'Pass { home: os.homedir() } or a fake home in tests; the monitor never falls back to the process home.')
  }
  if (options.codexHome !== undefined && (typeof options.codexHome !== 'string' || options.codexHome === '')) {
    throw new MonitorOptionsError('codexHome', `codexHome must be a directory path (got ${JSON.stringify(options.codexHome)})`, 'Omit it to use <home>/.codex, or pass process.env.CODEX_HOME when it is set.')
  }
  if (options.opencodeUrl !== undefined && !/^https?:\/\/\S+$/.test(options.opencodeUrl)) {
    throw new MonitorOptionsError('opencodeUrl', `opencodeUrl must be an http(s) URL (got ${JSON.stringify(options.opencodeUrl)})`, 'Pass the address `opencode serve` prints, e.g. http://127.0.0.1:4096.')
  }
  if (options.opencodeDataDir !== undefined && (typeof options.opencodeDataDir !== 'string' || options.opencodeDataDir === '')) {
    throw new MonitorOptionsError('opencodeDataDir', `opencodeDataDir must be a directory path (got ${JSON.stringify(options.opencodeDataDir)})`, 'Omit it to use <home>/.local/share/opencode, or pass $XDG_DATA_HOME/opencode when it is set.')
  }
  const resolved: ResolvedMonitorOptions = {
    home: options.home,
    codexHome: options.codexHome ?? join(options.home, '.codex'),
    ...(options.opencodeUrl !== undefined ? { opencodeUrl: options.opencodeUrl } : {}),
    opencodeDataDir: options.opencodeDataDir ?? join(options.home, '.local', 'share', 'opencode'),
    opencodeOptional: options.opencodeOptional === true,
    ...(options.opencodeAuth !== undefined ? { opencodeAuth: options.opencodeAuth } : {}),
    liveWindowMs: duration(options, 'liveWindowMs', DEFAULT_LIVE_WINDOW_MS, 1),
    endedWindowMs: duration(options, 'endedWindowMs', DEFAULT_ENDED_WINDOW_MS, 1),
    settleMs: duration(options, 'settleMs', DEFAULT_SETTLE_MS, 0),
    clock: options.clock ?? Date.now,
    pollIntervalMs: duration(options, 'pollIntervalMs', DEFAULT_POLL_INTERVAL_MS, 1),
    maxOpenFiles: duration(options, 'maxOpenFiles', DEFAULT_MAX_OPEN_FILES, 1),
    watch: options.watch ?? true,
  }
  if (resolved.endedWindowMs <= resolved.liveWindowMs) {
    throw new MonitorOptionsError(
      'endedWindowMs',
      `endedWindowMs (${resolved.endedWindowMs}) must be longer than liveWindowMs (${resolved.liveWindowMs})`,
      'A session goes idle first and is presumed ended only after a much longer silence (defaults: 5 min and 24 h).',
    )
  }
  if (typeof resolved.clock !== 'function') {
    throw new MonitorOptionsError('clock', 'clock must be a function returning epoch milliseconds', 'Pass () => Date.now(), or a fake clock in tests.')
  }
  return resolved
}

type NumericOption = 'liveWindowMs' | 'endedWindowMs' | 'settleMs' | 'pollIntervalMs' | 'maxOpenFiles'

function duration(options: MonitorOptions, name: NumericOption, fallback: number, min: number): number {
  const value = options[name]
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new MonitorOptionsError(name, `${name} must be a whole number ≥ ${min} (got ${JSON.stringify(value)})`, `Omit ${name} for the default (${fallback}).`)
  }
  return value
}
