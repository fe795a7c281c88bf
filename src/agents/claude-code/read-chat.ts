import { stat } from 'node:fs/promises'
import type { AgentChat } from '../../contract/agent-chat.js'
import { composeChat } from './compose-chat.js'
import { readLiveSignals } from './live-signal-files.js'
import type { ClaudeRegistryEntry } from './registry.js'
import { readRegistryFile } from './registry.js'
import { createTranscriptTail } from './transcript-tail.js'
import type { TranscriptTail, TranscriptTailOptions, TranscriptView } from './transcript-tail.js'

/**
 * `readChat`: the Claude Code read contract of seed 000. Reads the transcript (streamed, never
 * into one string), the run's live signals under `runtimeDir` and, when given, the CLI registry
 * entry, and composes one `AgentChat`.
 */

export interface ReadChatOptions extends TranscriptTailOptions {
  runId: string
  /** "" turns live signals off (a transcript-only read, e.g. of an ended run). */
  runtimeDir: string
  /** "" means "not located yet": the idle empty chat, with live signals still consulted. */
  transcriptPath: string
  /**
   * The CLI's registry entry for this session, or the path of its `~/.claude/sessions/<pid>.json`
   * (a missing file is ignored: the CLI removes it on exit). Taken as given: `locateTranscript`
   * is what checks that its pid is alive. An entry of another session (named neither by the file
   * name nor by the transcript's lines) is ignored.
   */
  registry?: ClaudeRegistryEntry | string
}

/**
 * Throws `TranscriptGoneError` when a non-empty `transcriptPath` does not exist (before any live
 * signal is consulted) and `JsonlLineTooLongError` for an over-cap line; other I/O errors pass
 * through. Malformed lines are skipped and counted in `warnings`.
 */
export async function readChat(options: ReadChatOptions): Promise<AgentChat> {
  return createChatReader(options).read()
}

export interface ChatReader {
  /** Reads what was appended since the previous call and composes the chat again. */
  read: () => Promise<AgentChat>
}

/** `readChat` for a tailer: the transcript is folded incrementally across calls. */
export function createChatReader(options: ReadChatOptions): ChatReader {
  const tail: TranscriptTail | undefined = options.transcriptPath === '' ? undefined : createTranscriptTail(options.transcriptPath, options)
  return {
    async read() {
      const view = tail === undefined ? emptyView() : await tail.read()
      const [live, registry, transcriptMtimeMs] = await Promise.all([
        readLiveSignals({ runId: options.runId, runtimeDir: options.runtimeDir }),
        typeof options.registry === 'string' ? readRegistryFile(options.registry) : Promise.resolve(options.registry),
        options.transcriptPath === '' ? Promise.resolve(undefined) : stat(options.transcriptPath).then((s) => s.mtimeMs, () => undefined),
      ])
      return composeChat({
        view,
        transcriptPath: options.transcriptPath,
        ...(transcriptMtimeMs !== undefined ? { transcriptMtimeMs } : {}),
        live,
        ...(registry !== undefined ? { registry } : {}),
      })
    },
  }
}

/** The view of a transcript that is not located yet. */
export function emptyView(): TranscriptView {
  return { state: 'idle', status: 'idle', messages: [], cursor: { offset: 0, lines: 0 }, warnings: [], hasToolId: () => false, pendingWork: 0, holding: false }
}
