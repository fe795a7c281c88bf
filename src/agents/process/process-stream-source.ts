import type { StreamChunk, StreamSource } from '../../contract/stream.js'
import { startAgentProcess } from './agent-process.js'
import type { AgentProcess, AgentProcessExit } from './agent-process.js'
import { createAsyncQueue } from './async-queue.js'
import { agentErrorChunk } from './agent-error-chunk.js'

/**
 * Turns one agent CLI run into an AgentsKit `StreamSource`. Agent-neutral: the agent's folder says
 * how to start the process, how a stdout line becomes chunks and what an exit without a terminal
 * chunk means; this file owns the lifecycle.
 *
 * Promises (adapter invariants, ADR-0001): nothing is spawned before `stream()` is iterated (A1);
 * a second `stream()` yields one error chunk (A2); the stream ends with exactly one `done` or one
 * `error`, or with nothing after an abort (A3); `abort()` never throws, at any time (A6); a failure
 * is an `error` chunk, never a throw (A9). After its terminal chunk the stream waits for the CLI to
 * exit (bounded by `exitTimeoutMs`, then the tree is terminated), so when iteration ends no process
 * of this turn is left; a stdout line over the line cap is skipped and named in the terminal chunk's
 * `metadata.warnings`; after an abort it ends once the process tree is gone (SIGTERM, then SIGKILL
 * after `graceMs`).
 */

export interface ProcessTurnHandlers {
  /** Called for each stdout line; returns the chunks it means (possibly none). */
  onLine: (line: string, process: AgentProcess) => StreamChunk[]
  /** The chunks an exit means when no terminal chunk came first (not called after an abort). */
  onExit: (exit: AgentProcessExit) => StreamChunk[]
  /**
   * Called once, synchronously, when the first terminal chunk is queued — before the consumer sees
   * it (e.g. close stdin so the CLI exits; settle the run state). Not called without a process.
   */
  onTerminal?: (process: AgentProcess, chunk: StreamChunk) => void
}

export type ProcessStreamEvent =
  | { type: 'started'; process: AgentProcess }
  /** The turn is over and its process gone; `terminal` is the chunk it ended with (none after an abort). */
  | { type: 'settled'; exit: AgentProcessExit | undefined; aborted: boolean; terminal: StreamChunk | undefined }

export interface ProcessStreamOptions {
  /** Runs before the spawn (e.g. wait for the previous turn's process to exit). Must not reject. */
  prepare?: () => Promise<void>
  /** Builds the command once `stream()` starts; may use state the previous turn produced. */
  command: () => {
    bin: string
    args: string[]
    cwd?: string
    env?: NodeJS.ProcessEnv
    /** Lines written to stdin (each with a newline). */
    stdin?: string[]
    /** Text written to stdin as is, after the lines. */
    stdinText?: string
    /** Close stdin after writing (default true). */
    closeStdin?: boolean
  }
  handlers: ProcessTurnHandlers
  /** SIGTERM → SIGKILL grace on abort (default 3000 ms). */
  graceMs?: number
  /** How long a CLI may take to exit after its terminal chunk before it is terminated (default 10 s). */
  exitTimeoutMs?: number
  /** Called when the process started (pid known) and when the turn settled (process gone). */
  onProcess?: (event: ProcessStreamEvent) => void
  /** A stdout line longer than this is skipped with a warning (default 16 MiB, the readers' line cap). */
  maxLineBytes?: number
}

const TERMINAL: ReadonlySet<StreamChunk['type']> = new Set(['done', 'error'])

export function createProcessStreamSource(options: ProcessStreamOptions): StreamSource {
  const queue = createAsyncQueue<StreamChunk>()
  let iterated = false
  let aborted = false
  let terminal = false
  let terminalChunk: StreamChunk | undefined
  let child: AgentProcess | undefined
  let runStarted = false
  let waitedSinceTerminal = 0
  const graceMs = options.graceMs ?? 3000
  /** Stdout lines skipped for their length: said in the terminal chunk's `metadata.warnings`. */
  const streamWarnings: string[] = []

  function emit(chunks: readonly StreamChunk[]): void {
    for (const produced of chunks) {
      if (aborted || terminal) return
      const chunk = TERMINAL.has(produced.type) ? withStreamWarnings(produced, streamWarnings) : produced
      queue.push(chunk)
      if (TERMINAL.has(chunk.type)) {
        terminal = true
        terminalChunk = chunk
        if (child) options.handlers.onTerminal?.(child, chunk)
      }
    }
  }

  async function run(): Promise<void> {
    let exit: AgentProcessExit | undefined
    try {
      await options.prepare?.()
      if (aborted) return
      const command = options.command()
      const started = startAgentProcess({
        bin: command.bin,
        args: command.args,
        ...(command.cwd !== undefined ? { cwd: command.cwd } : {}),
        ...(command.env !== undefined ? { env: command.env } : {}),
        ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
        onLine: (line) => {
          if (!aborted && !terminal) emit(options.handlers.onLine(line, started))
        },
        onOverCapLine: (skipped) => {
          streamWarnings.push(skipped.warning)
        },
        // A bug in a line handler ends the turn as data (A9), never as an uncaught exception.
        onLineError: (error) => {
          if (aborted || terminal) return
          emit([agentErrorChunk({ code: 'AGENT_ADAPTER_FAILED', message: `The agent adapter failed on a line of output: ${String(error)}` })])
          void started.terminate(graceMs)
        },
      })
      child = started
      options.onProcess?.({ type: 'started', process: started })
      for (const line of command.stdin ?? []) started.writeLine(line)
      if (command.stdinText !== undefined) started.write(command.stdinText)
      if (command.closeStdin !== false) started.endInput()
      exit = await Promise.race([started.exited, terminalTimeout(started)])
      // After an abort the CLI itself may exit first while the rest of its tree is still being
      // ended: the turn is over only when terminate() says the whole tree is gone.
      if (aborted) exit = await started.terminate(graceMs)
      if (!aborted && !terminal) emit(options.handlers.onExit(exit))
    } catch (error) {
      // A bug in a handler must still end the stream as data, never as a throw (A9).
      if (!aborted) emit([agentErrorChunk({ code: 'AGENT_ADAPTER_FAILED', message: `The agent adapter failed: ${String(error)}` })])
    } finally {
      try {
        options.onProcess?.({ type: 'settled', exit, aborted, terminal: terminalChunk })
      } finally {
        queue.close()
      }
    }
  }

  /** Resolves with the exit; once a terminal chunk is out, a CLI that lingers is terminated. */
  async function terminalTimeout(started: AgentProcess): Promise<AgentProcessExit> {
    const limit = options.exitTimeoutMs ?? 10_000
    for (;;) {
      const winner = await Promise.race([started.exited.then(() => 'exited' as const), delay(100).then(() => 'tick' as const)])
      if (winner === 'exited') return started.exited
      if (terminal && (waitedSinceTerminal += 100) >= limit) return started.terminate(graceMs)
    }
  }

  function abort(): void {
    if (aborted) return
    aborted = true
    queue.clear()
    // Not started: nothing to wait for. Started: run() closes the queue once the tree is gone.
    if (!runStarted) queue.close()
    try {
      void child?.terminate(graceMs)
    } catch {
      // abort() never throws (A6)
    }
  }

  return {
    stream() {
      if (iterated) {
        const once = createAsyncQueue<StreamChunk>()
        once.push(agentErrorChunk({ code: 'SOURCE_ALREADY_CONSUMED', message: 'This stream source was already iterated.', hint: 'Call createSource() again for a new turn.' }))
        once.close()
        return iteratorOf(once.next, () => undefined)
      }
      iterated = true
      return iteratorOf(
        () => {
          if (!runStarted && !aborted) {
            runStarted = true
            void run()
          }
          return queue.next()
        },
        () => {
          // The consumer stopped early: without a terminal chunk that is an abort.
          if (!terminal) abort()
        },
      )
    },
    abort,
  }
}

/** The terminal chunk with the stream's own warnings appended to `metadata.warnings` (a copy). */
function withStreamWarnings(chunk: StreamChunk, warnings: readonly string[]): StreamChunk {
  if (warnings.length === 0) return chunk
  const existing = chunk.metadata?.warnings
  const before = Array.isArray(existing) ? existing.filter((warning): warning is string => typeof warning === 'string') : []
  return { ...chunk, metadata: { ...chunk.metadata, warnings: [...before, ...warnings] } }
}

function iteratorOf(
  next: () => Promise<IteratorResult<StreamChunk, undefined>>,
  onReturn: () => void,
): AsyncIterableIterator<StreamChunk> {
  const iterator: AsyncIterableIterator<StreamChunk> = {
    next,
    return: () => {
      onReturn()
      return Promise.resolve({ done: true, value: undefined })
    },
    [Symbol.asyncIterator]: () => iterator,
  }
  return iterator
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
