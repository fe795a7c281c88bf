import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pty from 'node-pty'
import type { IPty } from 'node-pty'
import { agentBin } from './agent-clis.js'

/**
 * Runs the real Claude Code CLI (test/agents-e2e: see agent-clis.ts) against a scripted model server, in a
 * throwaway HOME: headless (`-p … --output-format stream-json --verbose`) or interactive in a
 * pseudo-terminal (node-pty). Prompts are passed after `--` or typed, never through a shell.
 */

export const CLAUDE_BIN = agentBin('claude')
export const API_KEY = 'sk-ant-scripted-not-a-secret'

export interface ClaudeHome {
  home: string
  cwd: string
  /** `<home>/.claude/projects/<slug>` where transcripts for `cwd` land. */
  projectDir: string
  sessionsDir: string
  cleanup: () => void
}

/** A temp HOME with onboarding done, the fake key approved and `cwd` trusted. */
export function makeClaudeHome(prefix = 'chatrail-cc-'): ClaudeHome {
  const home = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  const cwd = join(home, 'proj')
  mkdirSync(cwd)
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [cwd]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }),
  )
  return {
    home,
    cwd,
    projectDir: join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-')),
    sessionsDir: join(home, '.claude', 'sessions'),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  }
}

export function claudeEnv(home: string, serverUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  }
}

export interface HeadlessResult {
  exitCode: number | null
  events: Array<Record<string, unknown>>
  stderr: string
}

/** `claude -p --output-format stream-json --verbose [args] -- <prompt>`, killed after `timeoutMs`. */
export async function runHeadless(options: { home: ClaudeHome; serverUrl: string; prompt: string; args?: string[]; timeoutMs?: number }): Promise<HeadlessResult> {
  const args = ['-p', '--output-format', 'stream-json', '--verbose', ...(options.args ?? []), '--', options.prompt]
  const child = spawn(CLAUDE_BIN, args, { cwd: options.home.cwd, env: claudeEnv(options.home.home, options.serverUrl), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
  const exitCode = await new Promise<number | null>((resolveExit) => child.on('close', (code) => resolveExit(code)))
  clearTimeout(timer)
  const events = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>]
      } catch {
        return []
      }
    })
  return { exitCode, events, stderr }
}

export interface InteractiveClaude {
  pid: number
  /** Everything the terminal printed, ANSI stripped and whitespace removed (for matching). */
  screen: () => string
  write: (keys: string) => void
  /** Types text, then Enter as a separate write so the TUI does not take it as a paste. */
  submit: (text: string) => Promise<void>
  /** Waits until `needle` (whitespace-insensitive) shows after the `since` mark. */
  waitFor: (needle: string | RegExp, options?: { timeoutMs?: number; since?: number }) => Promise<void>
  /** A mark for `waitFor({ since })`: the current length of the screen text. */
  mark: () => number
  exited: Promise<number>
  kill: () => Promise<void>
}

export const KEY = { enter: '\r', esc: '\x1b', up: '\x1b[A', down: '\x1b[B', space: ' ', tab: '\t', ctrlC: '\x03' } as const

export function startInteractive(options: { home: ClaudeHome; serverUrl: string; args?: string[]; env?: Record<string, string> }): InteractiveClaude {
  const proc: IPty = pty.spawn(CLAUDE_BIN, options.args ?? [], {
    name: 'xterm-256color',
    cols: 140,
    rows: 50,
    cwd: options.home.cwd,
    env: { ...claudeEnv(options.home.home, options.serverUrl), ...options.env },
  })
  let raw = ''
  let text = ''
  proc.onData((data) => {
    raw += data
    text += flatten(data)
  })
  let alive = true
  const exited = new Promise<number>((resolveExit) =>
    proc.onExit(({ exitCode }) => {
      alive = false
      resolveExit(exitCode)
    }),
  )
  const waitFor = async (needle: string | RegExp, opts: { timeoutMs?: number; since?: number } = {}): Promise<void> => {
    const deadline = Date.now() + (opts.timeoutMs ?? 20_000)
    const flat = typeof needle === 'string' ? needle.replace(/\s+/g, '') : needle
    for (;;) {
      const seen = text.slice(opts.since ?? 0)
      if (typeof flat === 'string' ? seen.includes(flat) : flat.test(seen)) return
      if (!alive) throw new Error(`claude exited before showing ${String(needle)}; screen tail: ${text.slice(-600)}`)
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(needle)}; screen tail: ${text.slice(-800)} (raw ${raw.length} bytes)`)
      await sleep(100)
    }
  }
  return {
    pid: proc.pid,
    screen: () => text,
    write: (keys) => proc.write(keys),
    submit: async (line) => {
      proc.write(line)
      await sleep(300)
      proc.write(KEY.enter)
    },
    waitFor,
    mark: () => text.length,
    exited,
    kill: async () => {
      if (!alive) return
      proc.kill('SIGTERM')
      const done = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)])
      if (!done && alive) {
        try {
          process.kill(proc.pid, 'SIGKILL')
        } catch {
          // already gone
        }
        await Promise.race([exited, sleep(2000)])
      }
    },
  }
}

/** The transcripts (`*.jsonl`) in the project dir, by name. */
export function listTranscripts(home: ClaudeHome): string[] {
  if (!existsSync(home.projectDir)) return []
  return readdirSync(home.projectDir).filter((f) => f.endsWith('.jsonl')).map((f) => join(home.projectDir, f))
}

/** The registry entries (`~/.claude/sessions/<pid>.json`) as raw text by file name. */
export function readRegistry(home: ClaudeHome): Map<string, string> {
  const out = new Map<string, string>()
  if (!existsSync(home.sessionsDir)) return out
  for (const f of readdirSync(home.sessionsDir)) if (f.endsWith('.json')) out.set(f, readFileSync(join(home.sessionsDir, f), 'utf8'))
  return out
}

/** Polls `check` (sync or async) until it returns a value, or throws after `timeoutMs`. */
export async function poll<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, describeLast?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${describeLast ? `; last: ${describeLast()}` : ''}`)
    await sleep(120)
  }
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]/g

function flatten(data: string): string {
  return data.replace(ANSI, '').replace(/\s+/g, '')
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms))
}
