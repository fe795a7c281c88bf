import { ChatrailError } from '../../../contract/errors.js'

/** The options of `codexAdapter`. Only `cwd` is required. */
export interface CodexAdapterOptions {
  /** The agent's working directory (a git repository, unless `skipGitRepoCheck`). */
  cwd: string
  /** The CLI to run (default `codex`, found on PATH). Never run through a shell. */
  bin?: string
  /** An existing thread to resume on the first turn (the `thread_id` of `thread.started`). */
  threadId?: string
  /** Continue the same thread across turns with `codex exec resume` (default true). */
  resume?: boolean
  model?: string
  sandbox?: CodexSandboxMode
  /** `CODEX_HOME` for the child (config, auth and the rollouts under `sessions/`); default `~/.codex`. */
  codexHome?: string
  /** Merged over `process.env` for the child. */
  env?: Record<string, string | undefined>
  /** Let Codex run outside a git repository (`--skip-git-repo-check`). */
  skipGitRepoCheck?: boolean
  /** More `codex exec` arguments, placed before the adapter's own. Trusted configuration, never user text. */
  extraArgs?: string[]
  /** SIGTERM → SIGKILL grace when a turn is aborted (default 3000 ms). */
  graceMs?: number
  /** How often the rollout is read for the live run state while a turn runs (default 200 ms). */
  pollMs?: number
}

export type CodexSandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access'

export const CODEX_SANDBOX_MODES: readonly CodexSandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access']

/** Codex thread ids are UUIDs (v7); checking keeps a configured id from ever reading as a flag. */
export const THREAD_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Throws a `ChatrailError` naming the option and the fix; called once, when the adapter is made. */
export function validateCodexOptions(options: CodexAdapterOptions): void {
  const fail = (option: string, message: string, hint: string): never => {
    throw new ChatrailError({ code: 'INVALID_ADAPTER_OPTION', message: `codexAdapter: \`${option}\` ${message}`, hint })
  }
  if (typeof options.cwd !== 'string' || options.cwd === '') fail('cwd', 'is required.', 'Pass the directory the agent works in, e.g. { cwd: process.cwd() }.')
  if (options.bin !== undefined && options.bin === '') fail('bin', 'is empty.', 'Leave it out to run `codex` from PATH, or pass a path.')
  if (options.threadId !== undefined && !THREAD_ID_PATTERN.test(options.threadId)) {
    fail('threadId', `is not a Codex thread id: ${JSON.stringify(options.threadId)}.`, 'Use the `thread_id` of a `thread.started` event (a UUID), or the UUID at the end of a rollout file name.')
  }
  if (options.sandbox !== undefined && !CODEX_SANDBOX_MODES.includes(options.sandbox)) {
    fail('sandbox', `is not one of ${CODEX_SANDBOX_MODES.join(', ')}: ${JSON.stringify(options.sandbox)}.`, 'Pick one of the listed modes.')
  }
  if (options.codexHome !== undefined && options.codexHome === '') fail('codexHome', 'is empty.', 'Leave it out for ~/.codex, or pass a directory.')
}
