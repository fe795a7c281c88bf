import { ChatrailError } from '../../../contract/errors.js'
import type { AgentPermissionRequest, AgentPermissionVerdict } from '../../../conversation/permission-confirmations.js'
import type { OpencodeAuth } from '../http-client.js'

/** The options of `opencodeAdapter`. `cwd` is required when the adapter starts its own server. */
export interface OpencodeAdapterOptions {
  /** The project OpenCode works in (the started server's working directory). */
  cwd: string
  /** The CLI to start as `opencode serve` (default `opencode`, found on PATH). Never run through a shell. */
  bin?: string
  /** Use this running server instead of starting one (`dispose()` then leaves it running). */
  baseUrl?: string
  /** Basic auth for the server at `baseUrl`; default from `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME` (of `env` over `process.env`). A server the adapter starts ignores it: it gets a fresh random password of its own. */
  auth?: OpencodeAuth
  /** An existing OpenCode session (`ses_…`) to continue; default a new session on the first turn. */
  sessionId?: string
  /** `provider/model`, e.g. `anthropic/claude-sonnet-4-5`; default the server's configured model. */
  model?: string
  /** The OpenCode agent (`build`, `plan`, …); default the server's. */
  agent?: string
  /** Merged over `process.env` for the started server (`undefined` removes a variable). */
  env?: Record<string, string | undefined>
  /** More `opencode` arguments before `serve` (trusted configuration, never user text). */
  extraArgs?: string[]
  /** How long the started server may take to listen (default 30 s). */
  startTimeoutMs?: number
  /** SIGTERM → SIGKILL grace when the server is stopped (default 3000 ms). */
  graceMs?: number
  /** Per HTTP request (default 10 s). */
  requestTimeoutMs?: number
  /**
   * Decide every permission request (`permission.asked`) through a confirmation record: pass
   * chatrail/actions' `permissionConfirmations(...)`. Approving the record replies `once`, a
   * rejection or expiry `reject` with the reason; `answerDialog` on the permission decides the same
   * record, so OpenCode gets one reply whichever way the person answers. Default: answered through
   * `answerDialog` alone.
   */
  permissions?: OpencodePermissionGate
}

/** What `permissions` needs of chatrail/actions' `permissionConfirmations` (structural). */
export interface OpencodePermissionGate {
  readonly confirmations: { readonly sessionId: string }
  readonly ask: (request: AgentPermissionRequest) => Promise<AgentPermissionVerdict>
  readonly answer: (requestId: string, allowed: boolean, caller: string, reason?: string) => Promise<unknown> | undefined
}

export const SESSION_ID_PATTERN = /^ses[A-Za-z0-9_-]{1,128}$/
const MODEL_PATTERN = /^[^/\s]+\/\S+$/

/** Throws a `ChatrailError` naming the option and the fix; called once, when the adapter is made. */
export function validateOpencodeOptions(options: OpencodeAdapterOptions): void {
  const fail = (option: string, message: string, hint: string): never => {
    throw new ChatrailError({ code: 'INVALID_ADAPTER_OPTION', message: `opencodeAdapter: \`${option}\` ${message}`, hint })
  }
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object', "Call opencodeAdapter({ cwd: '/path/to/project' }).")
  if (options.baseUrl === undefined && (typeof options.cwd !== 'string' || options.cwd === '')) fail('cwd', 'is required to start a server', "Pass the project directory, e.g. { cwd: process.cwd() }, or a running server's baseUrl.")
  if (options.baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(options.baseUrl)) fail('baseUrl', `${JSON.stringify(options.baseUrl)} is not an http(s) URL`, 'Pass the URL `opencode serve` prints, e.g. http://127.0.0.1:4096.')
  if (options.sessionId !== undefined && !SESSION_ID_PATTERN.test(options.sessionId)) fail('sessionId', `${JSON.stringify(options.sessionId)} is not an OpenCode session id`, 'Session ids start with "ses_" (GET /session lists them).')
  if (options.model !== undefined && !MODEL_PATTERN.test(options.model)) fail('model', `${JSON.stringify(options.model)} is not provider/model`, 'e.g. anthropic/claude-sonnet-4-5.')
  if (options.bin !== undefined && (typeof options.bin !== 'string' || options.bin === '')) fail('bin', 'must be a non-empty path', 'Pass the opencode binary, or omit it to use `opencode` on PATH.')
  for (const key of ['startTimeoutMs', 'graceMs', 'requestTimeoutMs'] as const) {
    const value = options[key]
    if (value !== undefined && (!Number.isFinite(value) || value <= 0)) fail(key, `must be a positive number of milliseconds, got ${String(value)}`, 'Omit it for the default.')
  }
}
