import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { isClaudeCodeContent } from '../agents/claude-code/detect-transcript.js'
import { readChat as readClaudeCodeChat } from '../agents/claude-code/read-chat.js'
import { createTranscriptTail } from '../agents/claude-code/transcript-tail.js'
import { isRolloutContent, isRolloutLine } from '../agents/codex/detect-rollout.js'
import { readRolloutOrigin } from '../agents/codex/locate-rollout.js'
import { readChat as readCodexChat } from '../agents/codex/read-chat.js'
import { isOpencodeEventContent } from '../agents/opencode/detect-event-log.js'
import { readEventLog as readOpencodeEventLog } from '../agents/opencode/event-log.js'
import { DEFAULT_OPENCODE_URL } from '../agents/opencode/http-client.js'
import { readChat as readOpencodeChat } from '../agents/opencode/read-chat.js'
import { readDecodedWindow } from '../agents/runstate/decoded-window.js'
import { streamFile } from '../agents/runstate/file-stream.js'
import { createJsonlTail } from '../agents/runstate/jsonl-tail.js'
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from '../agents/runstate/read-window.js'
import { DEFAULT_MAX_LINE_BYTES, JsonlLineReader } from '../agents/runstate/jsonl-lines.js'
import type { AgentChat, AgentKind } from '../contract/agent-chat.js'
import { ChatrailError } from '../contract/errors.js'
import { terminalJson, terminalText } from '../contract/terminal-text.js'
import { closestName } from '../conversation/did-you-mean.js'
import { parseCommandArgs, usageErrorText } from './args.js'
import { formatChatView } from './inspect-view.js'

/** What an OpenCode session id looks like (the reader checks it again). */
const OPENCODE_SESSION_ID = /^ses[A-Za-z0-9_-]{1,128}$/

/**
 * The OpenCode server `inspect` reads `file` from: `--opencode-url` when given; for
 * `--agent opencode ses_…` naming no file, the server at OpenCode's default address (readChat
 * reads OpenCode's database when nothing listens there); otherwise none (`file` is a file).
 */
export function opencodeUrlOf(values: { agent?: string; 'opencode-url'?: string }, file: string, exists: (path: string) => boolean): string | undefined {
  if (values['opencode-url'] !== undefined) return values['opencode-url']
  return values.agent === 'opencode' && OPENCODE_SESSION_ID.test(file) && !exists(file) ? DEFAULT_OPENCODE_URL : undefined
}

/**
 * `chatrail inspect <file>`: reads one agent transcript the way the agent's reader does and prints
 * the composed chat, as a human view or (`--json`) exactly the `AgentChat` the reader returns.
 * Exit codes: 0 read, 1 the file could not be read as a transcript, 2 a usage error.
 */

export const inspectUsage = `usage: chatrail inspect <file> [options]

Reads an agent transcript (Claude Code ~/.claude/projects/…/<session>.jsonl, or a Codex rollout
~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl[.zst]) and shows its run
state: state, normalized status, detail, the pending dialog as a card, and the last messages.

options:
  --agent <name>       the transcript's agent (default: detected from the file's content)
  --registry <file>    Claude Code: the CLI's ~/.claude/sessions/<pid>.json for this session
  --runtime-dir <dir>  Claude Code: the run's live-signal dir (needs --run-id)
  --run-id <id>        the run id the live signals were armed with
  --opencode-url <url> OpenCode: read session <file> (a ses_… id) from this running server
                       (with --agent opencode and a ses_… id, default http://127.0.0.1:4096;
                       when nothing listens there, the session is read from OpenCode's database)
  --last <n>           messages to show (default 12; 0 for none)
  --json               print exactly the AgentChat as JSON
  -h, --help           show this help

examples:
  chatrail inspect ~/.claude/projects/-home-me-app/0b6f….jsonl
  chatrail inspect ~/.codex/sessions/2026/11/30/rollout-2026-11-30T09-12-03-01a2….jsonl --last 5
  chatrail inspect --agent opencode --opencode-url http://127.0.0.1:4096 ses_… --json`

export interface InspectOptions {
  file: string
  registry?: string
  /** OpenCode: `file` is a session id on this server (`--opencode-url`). */
  opencodeUrl?: string
  /** Whether the user named `opencodeUrl` (`--opencode-url`): credentials go only to a URL the user configured. */
  opencodeUrlNamed?: boolean
  runtimeDir: string
  runId: string
}

/**
 * One row per agent: `detect` is tried on the first lines of the file (any match wins, in table
 * order), `read` reads it. A new agent is one more row.
 */
export interface InspectAgent {
  agent: AgentKind
  detect: (line: unknown) => boolean
  read: (options: InspectOptions) => Promise<AgentChat>
  /** Whether the reader reads a parsed line (default `detect`): the others are counted as unread. */
  reads?: (line: unknown) => boolean
  /** Said after the count of unread lines: what the file probably is instead. */
  unreadHint?: string
  /** Where the session ran, from the file's own metadata (the human view shows it). */
  origin?: (file: string) => Promise<{ cwd?: string } | undefined>
}

export const inspectAgents: InspectAgent[] = [
  {
    agent: 'claude-code',
    detect: isClaudeCodeContent,
    read: (o) => readClaudeCodeChat({ runId: o.runId, runtimeDir: o.runtimeDir, transcriptPath: o.file, ...(o.registry !== undefined ? { registry: o.registry } : {}) }),
    unreadHint: 'a stream-json capture (claude -p --output-format stream-json) is not a transcript: inspect the session under ~/.claude/projects instead',
    origin: async (file) => {
      const cwd = (await createTranscriptTail(file).read()).cwd
      return cwd === undefined ? undefined : { cwd }
    },
  },
  {
    agent: 'codex',
    detect: isRolloutContent,
    read: (o) => readCodexChat({ runId: o.runId, runtimeDir: o.runtimeDir, transcriptPath: o.file }),
    reads: isRolloutLine,
    unreadHint: 'a `codex exec --json` capture is not a rollout: inspect the thread\'s rollout under ~/.codex/sessions instead',
    origin: readRolloutOrigin,
  },
  // A recorded event stream, or (--opencode-url) a session of a running server: its run state lives there.
  { agent: 'opencode', detect: isOpencodeEventContent, read: (o) => (o.opencodeUrl !== undefined ? readOpencodeChat({ baseUrl: o.opencodeUrl, sessionId: o.file, ...(o.opencodeUrlNamed === true ? {} : { auth: null }) }) : readOpencodeEventLog({ transcriptPath: o.file })) },
]

export interface InspectIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

const processIo: InspectIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
}

/**
 * What `inspect` prints comes from the file (text, titles, paths, error messages): shown safe for a
 * terminal, never as control sequences. The human view is made safe by `formatChatView`; JSON
 * keeps its value (`terminalJson` only escapes what `JSON.stringify` leaves raw).
 */
function safeIo(io: InspectIo): InspectIo & { json: (text: string) => void } {
  return { stdout: (text) => io.stdout(text), stderr: (text) => io.stderr(terminalText(text)), json: (text) => io.stdout(terminalJson(text)) }
}

/** The command-table entry point (src/cli/main.ts). */
export function run(args: readonly string[]): Promise<number> {
  return runInspect(args, processIo)
}

/** Runs the command and resolves with its exit code; never calls `process.exit`. */
export async function runInspect(args: readonly string[], rawIo: InspectIo = processIo): Promise<number> {
  const io = safeIo(rawIo)
  const parsed = parseCommandArgs(
    {
      command: 'inspect',
      positionals: true,
      options: {
        agent: { type: 'string' },
        registry: { type: 'string' },
        'opencode-url': { type: 'string' },
        'runtime-dir': { type: 'string' },
        'run-id': { type: 'string' },
        last: { type: 'string' },
        json: { type: 'boolean' },
      },
    },
    args,
  )
  if (parsed.kind === 'help') {
    io.stdout(inspectUsage)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(parsed.message)
    return 2
  }
  const { values, positionals } = parsed
  const file = positionals[0]
  if (file === undefined || positionals.length > 1) return usageError(io, positionals.length > 1 ? `one file at a time (got ${positionals.length})` : 'no transcript file given')
  if ((values['runtime-dir'] === undefined) !== (values['run-id'] === undefined)) return usageError(io, '--runtime-dir and --run-id go together (the live signals of one run)')
  const last = values.last === undefined ? 12 : Number(values.last)
  if (!Number.isInteger(last) || last < 0) return usageError(io, `--last takes a whole number ≥ 0 (got ${JSON.stringify(values.last)})`)
  const agents = inspectAgents.map((a) => a.agent)
  if (values.agent !== undefined && !agents.includes(values.agent as AgentKind)) return usageError(io, `unknown --agent ${JSON.stringify(values.agent)}${suggestAgent(values.agent, agents)}; known: ${agents.join(', ')}`)
  if (values['opencode-url'] !== undefined && values.agent !== undefined && values.agent !== 'opencode') return usageError(io, `--opencode-url reads an OpenCode session; it does not go with --agent ${values.agent}`)
  const opencodeUrl = opencodeUrlOf(values, file, existsSync)

  try {
    // With --opencode-url the argument is a session id on the server, not a file.
    if (opencodeUrl === undefined) {
      const problem = await fileProblem(file)
      if (problem !== undefined) {
        io.stderr(`chatrail inspect: ${problem}`)
        return 1
      }
    }
    const forced = opencodeUrl !== undefined ? 'opencode' : values.agent
    const entry = forced !== undefined ? inspectAgents.find((a) => a.agent === forced) : await detectAgent(file)
    if (entry === undefined) {
      io.stderr(`chatrail inspect: ${file} does not look like a transcript of ${agents.join(' or ')}; pass --agent to read it anyway.`)
      return 1
    }
    const chat = await entry.read({ file, runtimeDir: values['runtime-dir'] ?? '', runId: values['run-id'] ?? 'inspect', ...(values.registry !== undefined ? { registry: values.registry } : {}), ...(opencodeUrl !== undefined ? { opencodeUrl, opencodeUrlNamed: values['opencode-url'] !== undefined } : {}) })
    const unread = opencodeUrl === undefined ? await unreadWarning(file, entry) : undefined
    if (values.json) {
      io.json(JSON.stringify(chat, null, 2))
      // --json prints exactly the AgentChat; the count goes to stderr.
      if (unread !== undefined) io.stderr(`chatrail inspect: warning: ${unread}`)
      return 0
    }
    const origin = opencodeUrl === undefined ? await entry.origin?.(file).catch(() => undefined) : undefined
    io.stdout(formatChatView(chat, { last, source: file, ...(origin?.cwd === undefined ? {} : { cwd: origin.cwd }), ...(unread === undefined ? {} : { extraWarnings: [unread] }) }))
    return 0
  } catch (error) {
    io.stderr(`chatrail inspect: ${ChatrailError.isInstance(error) ? error.toString() : error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}

/**
 * Why `file` cannot be a transcript (missing, a directory), naming it and the fix. A FIFO or a
 * device passes here: the readers refuse it themselves, saying what it is (`NotARegularFileError`).
 */
async function fileProblem(file: string): Promise<string | undefined> {
  try {
    const stats = await stat(file)
    if (stats.isDirectory()) return `${file} is a directory; pass one transcript file in it (a Claude Code <session>.jsonl under ~/.claude/projects/<project>/, a Codex rollout-….jsonl under ~/.codex/sessions/YYYY/MM/DD/)`
    return undefined
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${file} does not exist; check the path (\`chatrail sessions --json\` lists every local session with its transcript path)`
    if (code === 'EACCES') return `${file} cannot be read (permission denied)`
    throw error
  }
}

/**
 * `N of M lines are not <agent> lines and were not read (…)` when the reader skipped parsed lines
 * it does not read (an exec capture read as a rollout), else `undefined`. Counts the lines the
 * readers read: the whole file, or a large one's first line and last window (runstate/read-window.ts).
 */
export async function unreadWarning(file: string, entry: InspectAgent): Promise<string | undefined> {
  const reads = entry.reads ?? entry.detect
  let total = 0
  let unread = 0
  const handlers = {
    onRecord: ({ value }: { value: unknown }) => {
      total += 1
      if (!reads(value)) unread += 1
    },
  }
  // The lines the reader read: the same window policy (a huge file's first line and last window).
  if (file.endsWith('.zst')) await readDecodedWindow(file, { compressed: true, what: 'file', maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxDecompressedBytes: DEFAULT_MAX_DECOMPRESSED_BYTES, maxDetailedWarnings: 0 }, handlers)
  else await createJsonlTail(file, { maxDetailedWarnings: 0 }).read(handlers)
  if (unread === 0) return undefined
  const what = entry.agent === 'codex' ? 'Codex rollout' : entry.agent === 'claude-code' ? 'Claude Code transcript' : 'OpenCode event'
  // The hint guesses what the file is instead: only when most of it went unread (one unknown line is a newer format's).
  const hint = entry.unreadHint !== undefined && unread * 2 > total ? ` (${entry.unreadHint})` : ''
  return `${unread} of ${total} line${total === 1 ? '' : 's'} ${unread === 1 ? `is not a ${what} line` : `are not ${what} lines`} and went unread${hint}`
}

function suggestAgent(value: string, agents: readonly string[]): string {
  const guess = closestName(value, agents)
  return guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`
}

/**
 * The first agent whose detector accepts one of the file's first complete lines. The file is
 * streamed (a `.zst` one decompressed) and split by the readers' own line rules, so a first line
 * of any length up to the line cap is read whole; it stops at the first recognized line, after
 * 200 lines, or after 64 MiB.
 */
export async function detectAgent(file: string): Promise<InspectAgent | undefined> {
  let found: InspectAgent | undefined
  const lines = new JsonlLineReader({ source: file, maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxDetailedWarnings: 0 })
  const handlers = {
    onRecord: ({ value }: { value: unknown }) => {
      found ??= inspectAgents.find((agent) => agent.detect(value))
    },
  }
  const stream = await streamFile(file, { compressed: file.endsWith('.zst'), maxBytes: DETECT_MAX_BYTES }, (chunk) => {
    lines.push(chunk, handlers)
    return found === undefined && lines.lines < DETECT_MAX_LINES
  })
  // A whole file (or a whole stream) without a final newline: its last line is complete too.
  if (found === undefined && stream.ended === 'end') lines.finish(handlers)
  return found
}

const MiB = 1024 * 1024
const DETECT_MAX_LINES = 200
const DETECT_MAX_BYTES = 64 * MiB

function usageError(io: InspectIo, problem: string): number {
  io.stderr(usageErrorText('inspect', problem))
  return 2
}
