import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { agentBin } from './agent-clis.js'

/**
 * Helpers to run the real Codex CLI (test/agents-e2e: see agent-clis.ts) headlessly against the scripted
 * Responses server. Every run gets its own `CODEX_HOME` and a git-initialised working directory;
 * the prompt always goes on stdin, so a prompt starting with `-` can never become a flag.
 */

export const codexBin = agentBin('codex')

export function codexAvailable(): boolean {
  return existsSync(codexBin)
}

export interface CodexWorkspace {
  /** `CODEX_HOME`: config.toml, and the rollouts under `sessions/`. */
  codexHome: string
  /** The agent's working directory: a fresh git repository. */
  cwd: string
  /** `HOME` for the CLI, so a login shell does not read the machine user's profile. */
  home: string
  /** Every rollout file under `sessions/`, oldest name first. */
  rollouts: () => string[]
  cleanup: () => void
}

export interface WorkspaceOptions {
  /** The scripted server's `baseUrl` (`http://127.0.0.1:PORT/v1`). */
  baseUrl: string
  /** Files to create in the working directory before the run. */
  files?: Record<string, string>
  /** TOML appended to config.toml (after the provider table, so start it with a `[table]`). */
  extraConfig?: string
}

/**
 * A temp `CODEX_HOME` whose config selects the scripted provider, with retries bounded (one
 * request retry, no stream retries) so an error scenario ends in about a second.
 */
export function createCodexWorkspace(options: WorkspaceOptions): CodexWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'chatrail-codex-')))
  const codexHome = join(root, 'codex-home')
  const cwd = join(root, 'work')
  mkdirSync(codexHome, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "scripted"',
      'approval_policy = "never"',
      // danger-full-access makes 0.171's resumed sessions hang every command for the full 10 s
      // yield window; the workspace-write sandbox works here and is the realistic setting.
      'sandbox_mode = "workspace-write"',
      '',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${options.baseUrl}"`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      'request_max_retries = 1',
      'stream_max_retries = 0',
      'stream_idle_timeout_ms = 60000',
      '',
      options.extraConfig ?? '',
    ].join('\n'),
  )
  for (const [name, content] of Object.entries(options.files ?? {})) writeFileSync(join(cwd, name), content)
  execFileSync('git', ['init', '-q'], { cwd })
  return {
    codexHome,
    cwd,
    rollouts: () => listRollouts(join(codexHome, 'sessions')),
    home: root,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  }
}

function listRollouts(dir: string): string[] {
  if (!existsSync(dir)) return []
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /^rollout-.*\.jsonl$/.test(entry.name)) found.push(join(entry.parentPath, entry.name))
  }
  return found.sort((a, b) => a.localeCompare(b))
}

export interface CodexRunOptions {
  workspace: CodexWorkspace
  prompt: string
  /** Resume this thread id (`codex exec resume <id> -`) instead of starting a new one. */
  resume?: string
  /** Kill the process (SIGKILL) after this long; the run then reports `timedOut`. */
  timeoutMs?: number
}

export interface CodexRun {
  child: ChildProcess
  /** Resolves when the process exits. */
  done: Promise<CodexRunResult>
  /** Stdout lines parsed so far (the `--json` event stream). */
  events: Record<string, unknown>[]
}

export interface CodexRunResult {
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  /** The raw `--json` stdout, for capture files. */
  stdout: string
  stderr: string
  events: Record<string, unknown>[]
  threadId?: string
}

/** Starts `codex exec --json --skip-git-repo-check` with the prompt on stdin. */
export function startCodexExec(options: CodexRunOptions): CodexRun {
  const { workspace } = options
  const args = ['exec', '--json', '--skip-git-repo-check']
  if (options.resume) args.push('resume', options.resume, '-')
  const child = spawn(codexBin, args, {
    cwd: workspace.cwd,
    env: { ...process.env, HOME: workspace.home, CODEX_HOME: workspace.codexHome, SCRIPTED_API_KEY: 'scripted-key', RUST_LOG: 'error', NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  child.stdin.end(options.prompt)
  const events: Record<string, unknown>[] = []
  let stdout = ''
  let stderr = ''
  let pending = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
    pending += chunk
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      try {
        events.push(JSON.parse(line) as Record<string, unknown>)
      } catch {
        // a non-JSON line on stdout is kept in `stdout` only
      }
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, options.timeoutMs ?? 30_000)
  const done = new Promise<CodexRunResult>((resolveRun) => {
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      const started = events.find((event) => event.type === 'thread.started')
      const threadId = typeof started?.thread_id === 'string' ? started.thread_id : undefined
      resolveRun({ exitCode, signal, timedOut, stdout, stderr, events, ...(threadId ? { threadId } : {}) })
    })
  })
  return { child, done, events }
}

export function runCodexExec(options: CodexRunOptions): Promise<CodexRunResult> {
  return startCodexExec(options).done
}

/** Polls until `predicate` holds for the workspace's newest rollout text, or throws after `timeoutMs`. */
export async function waitForRollout(
  workspace: CodexWorkspace,
  predicate: (text: string) => boolean,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const newest = workspace.rollouts().at(-1)
    if (newest && predicate(readFileSync(newest, 'utf8'))) return newest
    if (Date.now() > deadline) throw new Error(`waitForRollout: condition not met within ${timeoutMs} ms in ${workspace.codexHome}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
