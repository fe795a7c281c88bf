import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { DEFAULT_MAX_LINE_BYTES, JsonlLineReader } from '../runstate/jsonl-lines.js'
import type { JsonlLineHandlers } from '../runstate/jsonl-lines.js'
import { isGroupAlive, isSameProcessAlive, listDescendants, signalEach, signalProcessTree } from './kill-process-tree.js'
import type { SeenProcess } from './kill-process-tree.js'
import { createStderrTail } from './stderr-tail.js'
import { leaderIdReused, scanTurnTree, TURN_MARKER_VARIABLE, turnTree } from './turn-tree.js'
import type { TurnTree } from './turn-tree.js'

/**
 * One agent CLI run as a child process: spawned from an argument array (never a shell, so no user
 * text is ever parsed by one), in its own process group, stdout read line by line, the tail of
 * stderr kept for error messages. Whatever the child prints, this process stays up: a stdout line
 * longer than `maxLineBytes` is skipped (counted, never held past the cap; `onOverCapLine` hears of
 * it) and reading resumes at the next newline, stderr keeps only its last 4 KiB, a stream error is
 * the exit's business, and a throwing `onLine` is reported to `onLineError`, never thrown. `terminate()` sends SIGTERM to the whole tree, then SIGKILL after
 * a grace period; if this Node process exits first, every live tree is killed on the way out, so
 * no agent process outlives its owner.
 *
 * "The whole tree" is every process started under the turn, also those that left it: the child's
 * environment carries a per-turn marker (turn-tree.ts) that `setsid` and double-fork orphans keep,
 * and on terminate `/proc` is scanned by marker, session, group and ancestry, again and again until
 * nothing of the turn runs, so a child spawned while the abort is under way is ended too. While the
 * child runs, its descendants are also sampled (every `TREE_SAMPLE_MS`), so an orphan that cleared
 * its environment is still known by ancestry. Each process is recorded with its start time, so a
 * reused pid is never signalled.
 */

export interface AgentProcessOptions {
  bin: string
  args: readonly string[]
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Called once per stdout line, in order (without the newline, or a `\r` before it). */
  onLine: (line: string) => void
  /** A stdout line longer than this is skipped, never held past the cap (default 16 MiB, the readers' cap). */
  maxLineBytes?: number
  /** Called once per skipped over-cap stdout line, when its newline (or the end of stdout) arrives. */
  onOverCapLine?: (skipped: { line: number; bytes: number; warning: string }) => void
  /** Called when `onLine` threw (the line is dropped; reading goes on). Default: ignored. */
  onLineError?: (error: unknown) => void
}

export type AgentProcessExit =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stderr: string }
  /** The binary could not be started (`ENOENT`: not installed / not on PATH; `EACCES`: not executable). */
  | { kind: 'spawn-failed'; code: string; message: string; stderr: string }

export interface AgentProcess {
  readonly pid: number | undefined
  /** Writes one line (a newline is added) to stdin; ignored once stdin is closed. */
  writeLine: (line: string) => void
  /** Writes text to stdin exactly as given; ignored once stdin is closed. */
  write: (text: string) => void
  /** Closes stdin (the CLI then finishes its turn and exits). Idempotent. */
  endInput: () => void
  /** Resolves once the process exited and stdout was fully read. Never rejects. */
  readonly exited: Promise<AgentProcessExit>
  /** SIGTERM to the tree, SIGKILL after `graceMs`; resolves on exit. Idempotent, never throws. */
  terminate: (graceMs?: number) => Promise<AgentProcessExit>
}

export const DEFAULT_TERMINATE_GRACE_MS = 3000
const TREE_SAMPLE_MS = 250

/** SIGKILL for each live tree, run from the 'exit' hook. */
const liveTrees = new Set<() => void>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // 'exit' handlers run synchronously: SIGKILL is the only signal worth sending from here.
  process.once('exit', () => {
    for (const kill of liveTrees) kill()
  })
}

export function startAgentProcess(options: AgentProcessOptions): AgentProcess {
  const stderr = createStderrTail()
  const markerId = randomUUID()
  let child: ChildProcessWithoutNullStreams
  try {
    child = spawn(options.bin, [...options.args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), [TURN_MARKER_VARIABLE]: markerId },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: true,
      windowsHide: true,
    })
  } catch (error) {
    // Synchronous spawn failures (e.g. an invalid cwd type) become data, like async ones.
    const failure = spawnFailure(error, stderr.text())
    return {
      pid: undefined,
      writeLine: () => undefined,
      write: () => undefined,
      endInput: () => undefined,
      exited: Promise.resolve(failure),
      terminate: () => Promise.resolve(failure),
    }
  }

  const pid = child.pid
  const tree: TurnTree | undefined = pid === undefined ? undefined : turnTree(pid, markerId)
  const seen = new Map<number, SeenProcess>()
  /** Records the descendants of the child and of every process seen so far (orphans included). */
  const sample = (): void => {
    if (pid === undefined) return
    for (const [known, process] of seen) if (!isSameProcessAlive(process)) seen.delete(known)
    const roots = [pid, ...seen.keys()]
    for (const process of listDescendants(roots)) seen.set(process.pid, process)
  }
  /** Every process of the turn running now (the full scan), remembered for the next scan. */
  const scan = (): number[] => {
    if (tree === undefined) return []
    const found = scanTurnTree(tree, seen.values())
    for (const process of found) seen.set(process.pid, process)
    return found.map((process) => process.pid)
  }
  /** The group (while its id is still the turn's, see turn-tree.ts) and each of `members`. */
  const signalTurn = (signal: NodeJS.Signals, members: readonly number[]): void => {
    if (pid === undefined) return
    if (tree !== undefined && leaderIdReused(tree)) signalEach(members, signal)
    else signalProcessTree(pid, signal, members)
  }
  const groupAlive = (): boolean => pid !== undefined && !(tree !== undefined && leaderIdReused(tree)) && isGroupAlive(pid)
  const killTree = (): void => signalTurn('SIGKILL', scan())
  const sampler = pid === undefined ? undefined : setInterval(sample, TREE_SAMPLE_MS)
  sampler?.unref()
  if (pid !== undefined) {
    liveTrees.add(killTree)
    installExitHook()
  }
  let inputOpen = true
  let settled: AgentProcessExit | undefined
  let terminating: Promise<AgentProcessExit> | undefined

  // EPIPE on a CLI that exited early is expected; it surfaces through the exit, not as a throw.
  child.stdin.on('error', () => undefined)
  // A stream error (EIO, a reset pipe) must not be an uncaught 'error' event: the exit tells the story.
  child.stdout.on('error', () => undefined)
  child.stderr.on('error', () => undefined)
  child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk))
  const stdoutClosed = readStdoutLines(child.stdout, options)

  const exited = new Promise<AgentProcessExit>((resolve) => {
    child.once('error', (error) => {
      if (child.pid !== undefined) return // a late error on a running child: 'close' still follows
      settle(spawnFailure(error, stderr.text()))
    })
    child.once('close', (code, signal) => {
      void stdoutClosed.then(() => settle({ kind: 'exited', code, signal, stderr: stderr.text() }))
    })
    function settle(exit: AgentProcessExit): void {
      if (settled) return
      settled = exit
      // A normal exit leaves what the CLI chose to leave; only terminate() ends the tree.
      if (!terminating) {
        clearInterval(sampler)
        liveTrees.delete(killTree)
      }
      resolve(exit)
    }
  })

  return {
    pid,
    writeLine(line) {
      if (!inputOpen || child.stdin.destroyed) return
      child.stdin.write(`${line}\n`)
    },
    write(text) {
      if (!inputOpen || child.stdin.destroyed) return
      child.stdin.write(text)
    },
    endInput() {
      if (!inputOpen) return
      inputOpen = false
      child.stdin.end()
    },
    exited,
    terminate(graceMs = DEFAULT_TERMINATE_GRACE_MS) {
      if (pid === undefined) return exited
      terminating ??= endTree(graceMs)
      return terminating
    },
  }

  /**
   * SIGTERM to the group and every process of the turn, then rescan until the child exited and no
   * process of the turn runs: one spawned meanwhile (a tool starting as the abort lands) is found
   * by the next scan and signalled too. When the grace period ends, everything left gets SIGKILL.
   */
  async function endTree(graceMs: number): Promise<AgentProcessExit> {
    inputOpen = false
    clearInterval(sampler)
    sample()
    const termed = new Set<number>()
    const deadline = Date.now() + graceMs
    let killed = false
    for (;;) {
      const running = scan()
      if (settled !== undefined && running.length === 0 && !groupAlive()) break
      if (!killed && Date.now() >= deadline) killed = true
      if (killed) {
        signalTurn('SIGKILL', running)
      } else {
        const fresh = running.filter((member) => !termed.has(member))
        if (termed.size === 0 || fresh.length > 0) signalTurn('SIGTERM', fresh)
        for (const member of fresh) termed.add(member)
      }
      // SIGKILL cannot be ignored; only a zombie nobody reaps or a process stuck in the kernel could
      // still answer, so stop waiting.
      if (killed && settled !== undefined && Date.now() >= deadline + 1000) break
      await delay(25)
    }
    liveTrees.delete(killTree)
    return exited
  }
}

/**
 * Splits stdout into lines by bytes, under the readers' line policy (runstate/jsonl-lines.ts): an
 * over-cap line is only counted, so a 700 MiB line without a newline costs the cap in memory and
 * never becomes a string (it was a `RangeError: Invalid string length` thrown from readline, which
 * ended this process). Resolves when stdout ended or closed, after its last line.
 */
function readStdoutLines(stdout: NodeJS.ReadableStream, options: AgentProcessOptions): Promise<void> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const lines = new JsonlLineReader({ source: `${options.bin} stdout`, maxLineBytes, maxDetailedWarnings: Number.POSITIVE_INFINITY })
  const handlers: JsonlLineHandlers = {
    onRecord: () => undefined,
    onLine: (bytes) => {
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length
      try {
        options.onLine(bytes.toString('utf8', 0, end))
      } catch (error) {
        options.onLineError?.(error)
      }
    },
    onOverCap: (skipped) => {
      const warning = `${options.bin} printed a stdout line of ${skipped.bytes} bytes (line ${skipped.line}), over the ${maxLineBytes}-byte line cap; it was skipped, not parsed.`
      try {
        options.onOverCapLine?.({ line: skipped.line, bytes: skipped.bytes, warning })
      } catch (error) {
        options.onLineError?.(error)
      }
    },
  }
  return new Promise((resolve) => {
    let done = false
    const finish = (): void => {
      if (done) return
      done = true
      lines.finish(handlers)
      resolve()
    }
    stdout.on('data', (chunk: Buffer) => lines.push(chunk, handlers))
    stdout.once('end', finish)
    stdout.once('close', finish)
  })
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function spawnFailure(error: unknown, stderr: string): AgentProcessExit {
  const errno = error as NodeJS.ErrnoException
  return { kind: 'spawn-failed', code: errno.code ?? 'SPAWN_FAILED', message: errno.message ?? String(error), stderr }
}
