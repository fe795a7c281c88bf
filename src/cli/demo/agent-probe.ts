import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runBounded } from './bounded-run.js'
import type { BoundedRunResult } from './bounded-run.js'

/**
 * "Installed" is not "answers": a coding-agent CLI can be on PATH (npm start puts the
 * project's own copies there) and still be signed out or offline. A probe sends one tiny prompt
 * on stdin and counts as answered only if a model reply arrives before the deadline. It costs
 * one short model call when the CLI is signed in; `--agent` skips probing entirely.
 */

export interface ProbeOptions {
  timeoutMs: number
  env: NodeJS.ProcessEnv
  cwd: string
  signal?: AbortSignal
}

export interface ProbeResult {
  answers: boolean
  /** Why, in a few words, for the line the demo prints before it starts. */
  detail: string
  durationMs: number
}

const probePrompt = 'Reply with the single word: ready'

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  const parsed: Record<string, unknown>[] = []
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue
    try {
      const value: unknown = JSON.parse(line)
      if (typeof value === 'object' && value !== null) parsed.push(value as Record<string, unknown>)
    } catch {
      continue
    }
  }
  return parsed
}

function unanswered(run: BoundedRunResult, timeoutMs: number, fallback: string): ProbeResult {
  const detail =
    run.ending === 'timeout' ? `no answer within ${seconds(timeoutMs)}`
    : run.ending === 'spawn-error' ? `could not start (${run.error ?? 'unknown error'})`
    : run.ending === 'aborted' ? 'probe cancelled'
    : fallback
  return { answers: false, detail, durationMs: run.durationMs }
}

/** `claude -p` with no tools and no saved session; answered = exit 0 and a non-error result. */
export async function probeClaudeCode(bin: string, options: ProbeOptions): Promise<ProbeResult> {
  const run = await runBounded(bin, ['-p', '--output-format', 'json', '--no-session-persistence', '--tools', ''], {
    input: probePrompt,
    timeoutMs: options.timeoutMs,
    env: options.env,
    cwd: options.cwd,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  const result = jsonLines(run.stdout).find((event) => event.type === 'result')
  if (run.ending === 'exit' && run.code === 0 && result !== undefined && result.is_error !== true) {
    return { answers: true, detail: `answered in ${seconds(run.durationMs)}`, durationMs: run.durationMs }
  }
  const said = typeof result?.result === 'string' && result.result !== '' ? result.result : undefined
  const stderr = run.stderr.trim().split('\n').at(-1)
  return unanswered(run, options.timeoutMs, said ?? (stderr === undefined || stderr === '' ? `exit ${run.code}` : stderr))
}

/**
 * `codex login status` first (local, fast: a signed-out Codex would otherwise retry the network
 * until the deadline), then `codex exec --json --ephemeral` read-only; answered = `turn.completed`.
 */
export async function probeCodex(bin: string, options: ProbeOptions): Promise<ProbeResult> {
  const common = { env: options.env, cwd: options.cwd, ...(options.signal === undefined ? {} : { signal: options.signal }) }
  const login = await runBounded(bin, ['login', 'status'], { ...common, timeoutMs: Math.min(options.timeoutMs, 5000) })
  if (login.ending !== 'exit' || login.code !== 0) {
    const detail = login.ending === 'exit' ? 'not signed in (codex login status)' : unanswered(login, options.timeoutMs, '').detail
    return { answers: false, detail, durationMs: login.durationMs }
  }
  const run = await runBounded(bin, ['exec', '--json', '--ephemeral', '--skip-git-repo-check', '--sandbox', 'read-only', '-'], {
    ...common,
    input: probePrompt,
    timeoutMs: Math.max(1, options.timeoutMs - login.durationMs),
    until: (line) => line.includes('"turn.completed"') || line.includes('"turn.failed"'),
  })
  const events = jsonLines(run.stdout)
  const durationMs = login.durationMs + run.durationMs
  if (events.some((event) => event.type === 'turn.completed')) {
    return { answers: true, detail: `answered in ${seconds(durationMs)}`, durationMs }
  }
  const failed = events.find((event) => event.type === 'turn.failed')
  const error = failed?.error
  const message = typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string'
    ? (error as { message: string }).message
    : `exit ${run.code}`
  return { ...unanswered(run, options.timeoutMs, message), durationMs }
}

/**
 * `opencode run --format json` with the prompt on stdin (its own configured provider and model);
 * answered = a `text` event and exit 0. OpenCode prints `{"type":"error","error":{"data":{"message"}}}`
 * when the provider refuses (e.g. no key), which is the detail.
 */
export async function probeOpencode(bin: string, options: ProbeOptions): Promise<ProbeResult> {
  // An unconfigured OpenCode does not fail fast (it waits on the network for its model list), so a
  // local look comes first, like `codex login status`: no config and no credentials, no probe.
  if (!opencodeConfigured(options.env, options.cwd)) {
    return { answers: false, detail: 'not configured (no opencode.json, OPENCODE_CONFIG* or auth.json)', durationMs: 0 }
  }
  const run = await runBounded(bin, ['run', '--format', 'json'], {
    input: probePrompt,
    timeoutMs: options.timeoutMs,
    env: options.env,
    cwd: options.cwd,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  const events = jsonLines(run.stdout)
  if (run.ending === 'exit' && run.code === 0 && events.some((event) => event.type === 'text')) {
    return { answers: true, detail: `answered in ${seconds(run.durationMs)}`, durationMs: run.durationMs }
  }
  const error = events.find((event) => event.type === 'error')?.error
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined
  const message = typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string' ? (data as { message: string }).message : undefined
  const stderr = run.stderr.trim().split('\n').at(-1)
  return unanswered(run, options.timeoutMs, message ?? (stderr === undefined || stderr === '' ? `exit ${run.code}` : stderr))
}

/**
 * True when OpenCode has something to run with, found locally: a config named by `OPENCODE_CONFIG`,
 * `OPENCODE_CONFIG_CONTENT` or `OPENCODE_CONFIG_DIR`, an `opencode.json[c]` in the global config
 * folder or the project, or stored credentials (`auth.json`). Reads no file, only checks presence.
 */
export function opencodeConfigured(env: NodeJS.ProcessEnv, cwd: string): boolean {
  if (env.OPENCODE_CONFIG || env.OPENCODE_CONFIG_CONTENT || env.OPENCODE_CONFIG_DIR) return true
  const home = env.HOME ?? ''
  const configHome = env.XDG_CONFIG_HOME || (home === '' ? undefined : join(home, '.config'))
  const dataHome = env.XDG_DATA_HOME || (home === '' ? undefined : join(home, '.local', 'share'))
  const candidates = [
    ...(configHome === undefined ? [] : [join(configHome, 'opencode', 'opencode.json'), join(configHome, 'opencode', 'opencode.jsonc')]),
    ...(dataHome === undefined ? [] : [join(dataHome, 'opencode', 'auth.json')]),
    join(cwd, 'opencode.json'),
    join(cwd, 'opencode.jsonc'),
  ]
  return candidates.some((path) => existsSync(path))
}
