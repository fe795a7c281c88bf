import { lstatSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ChatrailError } from '../../contract/errors.js'
import { DIALOG_TOOLS } from './dialog-mapping.js'
import { defaultRuntimeDir, ensurePrivateDir, writePrivateFile } from './private-dir.js'

/**
 * Arming Claude Code's hooks so a run reports what its transcript cannot show in time: a dialog
 * that is open (PreToolUse on the dialog tools writes a spool file, PostToolUse removes it) and
 * lifecycle edges (Notification, Stop and StopFailure write a marker; the newest event wins).
 * All writes are atomic (write a temp file, then rename). Hooks are observational: they never
 * exit 2, so they can never block a tool. Only `readChat` interprets these files.
 *
 * The settings file is code the CLI runs as this user, and the spool holds dialog text, so the
 * runtime dir must be private (private-dir.ts): created 0700, refused when another user owns it or
 * can write to it. Files are created exclusively with mode 0600 and renamed into place; the hooks
 * write through a temp file `mktemp` creates exclusively (mode 0600 under `umask 077`).
 *
 * Layout under the caller's runtime dir, one set per run id:
 *   settings.<runId>.json   the `--settings` file
 *   dialogs/<runId>.json    PreToolUse stdin of the open dialog
 *   state/<runId>.json      stdin of the newest Notification / Stop / StopFailure
 */

export interface LiveSignalPaths {
  settingsPath: string
  spoolPath: string
  markerPath: string
}

export interface LiveSignalSetup extends LiveSignalPaths {
  /** Append to the `claude` command line (before any `--`). */
  args: string[]
  /** The private directory used (pass it to `readChat`): the one given, or the default. */
  runtimeDir: string
}

export interface SetupLiveSignalsOptions {
  runId: string
  /**
   * A directory private to this user (created 0700 when absent; refused when someone else owns it
   * or it is group/world-writable). Default: `$XDG_RUNTIME_DIR/chatrail` when that is private,
   * else `<os temp dir>/chatrail-<uid>`.
   */
  runtimeDir?: string
  /**
   * How long an unattended dialog may stay open, for CLIs that auto-dismiss it (2.1.198 dismisses
   * after 60 s). Sets `CLAUDE_AFK_TIMEOUT_MS`, clamped to 2^31−1. Omit to keep the CLI default.
   */
  dialogTimeoutMs?: number
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
const MAX_TIMEOUT = 2 ** 31 - 1
const MARKER_EVENTS = ['Notification', 'Stop', 'StopFailure'] as const

export function liveSignalPaths(options: { runId: string; runtimeDir: string }): LiveSignalPaths {
  checkRunId(options.runId)
  return {
    settingsPath: join(options.runtimeDir, `settings.${options.runId}.json`),
    spoolPath: join(options.runtimeDir, 'dialogs', `${options.runId}.json`),
    markerPath: join(options.runtimeDir, 'state', `${options.runId}.json`),
  }
}

/**
 * Checks (or creates) the private runtime dir and its `dialogs/` and `state/` folders, writes the
 * per-run settings file (0600) and returns the arguments that arm it. Throws `ChatrailError`
 * `UNSAFE_RUNTIME_DIR` for a directory another user could read or replace files in.
 */
export function setupLiveSignals(options: SetupLiveSignalsOptions): LiveSignalSetup {
  if (options.runtimeDir === '') {
    throw new ChatrailError({ code: 'LIVE_SIGNALS_NO_DIR', message: 'setupLiveSignals needs a runtimeDir; an empty one means live signals are off.', hint: 'Pass a private directory for this run, omit runtimeDir for the default, or do not arm live signals.' })
  }
  const runtimeDir = options.runtimeDir ?? defaultRuntimeDir()
  const paths = liveSignalPaths({ runId: options.runId, runtimeDir })
  const matcher = [...DIALOG_TOOLS].join('|')
  const settings: Record<string, unknown> = {
    hooks: {
      PreToolUse: [{ matcher, hooks: [{ type: 'command', command: exclusiveWrite(paths.spoolPath, 'pre') }] }],
      PostToolUse: [{ matcher, hooks: [{ type: 'command', command: `rm -f ${shellQuote(paths.spoolPath)} || true` }] }],
      ...Object.fromEntries(MARKER_EVENTS.map((event) => [event, [{ hooks: [{ type: 'command', command: exclusiveWrite(paths.markerPath, event.toLowerCase()) }] }]])),
    },
  }
  if (options.dialogTimeoutMs !== undefined) {
    const ms = Math.min(MAX_TIMEOUT, Math.max(0, Math.round(options.dialogTimeoutMs)))
    settings.env = { CLAUDE_AFK_TIMEOUT_MS: String(ms) }
  }
  for (const dir of [runtimeDir, join(runtimeDir, 'dialogs'), join(runtimeDir, 'state')]) ensurePrivateDir(dir)
  writePrivateFile(paths.settingsPath, `${JSON.stringify(settings, null, 2)}\n`)
  return { ...paths, runtimeDir, args: ['--settings', paths.settingsPath] }
}

/**
 * A cheap change digest of the run's spool and marker (existence, mtime, size): lets a tailer
 * notice a dialog opening while the transcript is byte-frozen. `""` when neither file exists.
 */
export function signalDigest(options: { runId: string; runtimeDir: string }): string {
  if (options.runtimeDir === '') return ''
  const paths = liveSignalPaths(options)
  const parts = [fileSig('spool', paths.spoolPath), fileSig('marker', paths.markerPath)].filter((p) => p !== '')
  return parts.join('|')
}

export interface SweepOptions {
  runtimeDir: string
  /** Runs whose files must stay. */
  keepRunIds: Iterable<string>
  /** Temp files older than this are crash leftovers (default 2 minutes). */
  orphanAgeMs?: number
  now?: number
}

/** Removes the settings/spool/marker of every run outside the keep-set and stale temp files. Returns what it removed. */
export function sweepLiveSignals(options: SweepOptions): string[] {
  if (options.runtimeDir === '') return []
  const keep = new Set(options.keepRunIds)
  const now = options.now ?? Date.now()
  const orphanAge = options.orphanAgeMs ?? 120_000
  const removed: string[] = []
  const sweep = (dir: string, runIdOf: (name: string) => string | undefined): void => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return
    }
    for (const name of names) {
      const path = join(dir, name)
      if (name.endsWith('.tmp') || /\.tmp\.[A-Za-z0-9]{6}$/.test(name)) {
        const age = now - (safeMtime(path) ?? now)
        if (age > orphanAge) removeFile(path, removed)
        continue
      }
      const runId = runIdOf(name)
      if (runId !== undefined && !keep.has(runId)) removeFile(path, removed)
    }
  }
  sweep(options.runtimeDir, (name) => /^settings\.(.+)\.json$/.exec(name)?.[1])
  sweep(join(options.runtimeDir, 'dialogs'), (name) => /^(.+)\.json$/.exec(name)?.[1])
  sweep(join(options.runtimeDir, 'state'), (name) => /^(.+)\.json$/.exec(name)?.[1])
  return removed
}

function checkRunId(runId: string): void {
  if (!RUN_ID.test(runId)) {
    throw new ChatrailError({
      code: 'LIVE_SIGNALS_BAD_RUN_ID',
      message: `Run id ${JSON.stringify(runId)} cannot name live-signal files.`,
      hint: 'Use 1–128 characters from [A-Za-z0-9._-], starting with a letter or digit.',
    })
  }
}

/**
 * `umask 077`, then stdin into a temp file `mktemp` creates exclusively (never an existing path, so
 * a planted symlink is never followed), renamed over the target; never failing the hook. The
 * folder is created (0700) only if the sweep or a user removed it.
 */
function exclusiveWrite(target: string, tag: string): string {
  const dir = target.slice(0, target.lastIndexOf('/'))
  const template = shellQuote(`${target}.${tag}.tmp.XXXXXX`)
  return `umask 077; mkdir -p ${shellQuote(dir)} && t=$(mktemp ${template}) && { cat > "$t" && mv -f "$t" ${shellQuote(target)} || rm -f "$t"; }; true`
}

/** POSIX single-quoting: the path is data, never shell syntax. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

function fileSig(label: string, path: string): string {
  try {
    const stat = lstatSync(path)
    return `${label}:${stat.mtimeMs}:${stat.size}`
  } catch {
    return ''
  }
}

function safeMtime(path: string): number | undefined {
  try {
    return lstatSync(path).mtimeMs
  } catch {
    return undefined
  }
}

function removeFile(path: string, removed: string[]): void {
  try {
    rmSync(path, { force: true })
    removed.push(path)
  } catch {
    // Gone already, or not ours to remove: the sweep is best-effort.
  }
}
