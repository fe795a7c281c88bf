import { open } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { isClaudeCodeContent } from '../agents/claude-code/detect-transcript.js'
import { readChat as readClaudeCodeChat } from '../agents/claude-code/read-chat.js'
import { isRolloutContent } from '../agents/codex/detect-rollout.js'
import { readChat as readCodexChat } from '../agents/codex/read-chat.js'
import type { AgentChat, AgentKind } from '../agents/runstate/agent-chat.js'
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
  --last <n>           messages to show (default 12; 0 for none)
  --json               print exactly the AgentChat as JSON
  -h, --help           show this help`

export interface InspectOptions {
  file: string
  registry?: string
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
    const entry = values.agent !== undefined ? inspectAgents.find((a) => a.agent === values.agent) : await detectAgent(file)
    if (entry === undefined) {
      io.stderr(`chatrail inspect: ${file} does not look like a transcript of ${agents.join(' or ')}; pass --agent to read it anyway.`)
      return 1
    }
    const chat = await entry.read({ file, runtimeDir: values['runtime-dir'] ?? '', runId: values['run-id'] ?? 'inspect', ...(values.registry !== undefined ? { registry: values.registry } : {}) })
    io.stdout(values.json ? JSON.stringify(chat, null, 2) : formatChatView(chat, { last, source: file }))
    return 0
  } catch (error) {
    io.stderr(`chatrail inspect: ${ChatrailError.isInstance(error) ? error.toString() : error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}

/** The first agent whose detector accepts one of the file's first lines (it reads at most 256 KiB). */
export async function detectAgent(file: string): Promise<InspectAgent | undefined> {
  const handle = await open(file, 'r')
  let head: string
  try {
    const buffer = Buffer.alloc(256 * 1024)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    head = buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
  const lines = head.split('\n').slice(0, 200)
  if (!head.endsWith('\n') && lines.length > 1) lines.pop()
  const values = lines.flatMap((line) => {
    if (line.trim() === '') return []
    try {
      return [JSON.parse(line) as unknown]
    } catch {
      return []
    }
  })
  return inspectAgents.find((agent) => values.some((value) => agent.detect(value)))
}

function usageError(io: InspectIo, problem: string): number {
  io.stderr(`chatrail inspect: ${problem}\n\n${inspectUsage}`)
  return 2
}
