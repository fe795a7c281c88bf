import { parseArgs } from 'node:util'
import { isClaudeCodeContent } from '../agents/claude-code/detect-transcript.js'
import { readChat as readClaudeCodeChat } from '../agents/claude-code/read-chat.js'
import { isRolloutContent } from '../agents/codex/detect-rollout.js'
import { readChat as readCodexChat } from '../agents/codex/read-chat.js'
import { isOpencodeEventContent } from '../agents/opencode/detect-event-log.js'
import { readEventLog as readOpencodeEventLog } from '../agents/opencode/event-log.js'
import { readChat as readOpencodeChat } from '../agents/opencode/read-chat.js'
import { streamFile } from '../agents/runstate/file-stream.js'
import { DEFAULT_MAX_LINE_BYTES, JsonlLineReader } from '../agents/runstate/jsonl-lines.js'
import type { AgentChat, AgentKind } from '../contract/agent-chat.js'
import { ChatrailError } from '../contract/errors.js'
import { formatChatView } from './inspect-view.js'

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
  --last <n>           messages to show (default 12; 0 for none)
  --json               print exactly the AgentChat as JSON
  -h, --help           show this help`

export interface InspectOptions {
  file: string
  registry?: string
  /** OpenCode: `file` is a session id on this server (`--opencode-url`). */
  opencodeUrl?: string
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
}

export const inspectAgents: InspectAgent[] = [
  {
    agent: 'claude-code',
    detect: isClaudeCodeContent,
    read: (o) => readClaudeCodeChat({ runId: o.runId, runtimeDir: o.runtimeDir, transcriptPath: o.file, ...(o.registry !== undefined ? { registry: o.registry } : {}) }),
  },
  { agent: 'codex', detect: isRolloutContent, read: (o) => readCodexChat({ runId: o.runId, runtimeDir: o.runtimeDir, transcriptPath: o.file }) },
  // A recorded event stream, or (--opencode-url) a session of a running server: its run state lives there.
  { agent: 'opencode', detect: isOpencodeEventContent, read: (o) => (o.opencodeUrl !== undefined ? readOpencodeChat({ baseUrl: o.opencodeUrl, sessionId: o.file }) : readOpencodeEventLog({ transcriptPath: o.file })) },
]

export interface InspectIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

const processIo: InspectIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
}

/** The command-table entry point (src/cli/main.ts). */
export function run(args: readonly string[]): Promise<number> {
  return runInspect(args, processIo)
}

/** Runs the command and resolves with its exit code; never calls `process.exit`. */
export async function runInspect(args: readonly string[], io: InspectIo = processIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        agent: { type: 'string' },
        registry: { type: 'string' },
        'opencode-url': { type: 'string' },
        'runtime-dir': { type: 'string' },
        'run-id': { type: 'string' },
        last: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    return usageError(io, error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout(inspectUsage)
    return 0
  }
  const file = positionals[0]
  if (file === undefined || positionals.length > 1) return usageError(io, positionals.length > 1 ? `one file at a time (got ${positionals.length})` : 'no transcript file given')
  if ((values['runtime-dir'] === undefined) !== (values['run-id'] === undefined)) return usageError(io, '--runtime-dir and --run-id go together (the live signals of one run)')
  const last = values.last === undefined ? 12 : Number(values.last)
  if (!Number.isInteger(last) || last < 0) return usageError(io, `--last takes a whole number ≥ 0 (got ${JSON.stringify(values.last)})`)
  const agents = inspectAgents.map((a) => a.agent)
  if (values.agent !== undefined && !agents.includes(values.agent as AgentKind)) return usageError(io, `unknown --agent ${JSON.stringify(values.agent)}; known: ${agents.join(', ')}`)

  try {
    const opencodeUrl = values['opencode-url']
    if (opencodeUrl !== undefined && values.agent !== undefined && values.agent !== 'opencode') return usageError(io, `--opencode-url reads an OpenCode session; it does not go with --agent ${values.agent}`)
    const forced = opencodeUrl !== undefined ? 'opencode' : values.agent
    const entry = forced !== undefined ? inspectAgents.find((a) => a.agent === forced) : await detectAgent(file)
    if (entry === undefined) {
      io.stderr(`chatrail inspect: ${file} does not look like a transcript of ${agents.join(' or ')}; pass --agent to read it anyway.`)
      return 1
    }
    const chat = await entry.read({ file, runtimeDir: values['runtime-dir'] ?? '', runId: values['run-id'] ?? 'inspect', ...(values.registry !== undefined ? { registry: values.registry } : {}), ...(opencodeUrl !== undefined ? { opencodeUrl } : {}) })
    io.stdout(values.json ? JSON.stringify(chat, null, 2) : formatChatView(chat, { last, source: file }))
    return 0
  } catch (error) {
    io.stderr(`chatrail inspect: ${ChatrailError.isInstance(error) ? error.toString() : error instanceof Error ? error.message : String(error)}`)
    return 1
  }
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
  io.stderr(`chatrail inspect: ${problem}\n\n${inspectUsage}`)
  return 2
}
