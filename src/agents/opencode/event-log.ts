import type { AgentChat } from '../../contract/agent-chat.js'
import { createJsonlTail } from '../runstate/jsonl-tail.js'
import type { JsonlTail } from '../runstate/jsonl-tail.js'
import type { ReadWindowOptions } from '../runstate/read-window.js'
import { composeChat } from './compose-chat.js'
import { applyEvent, createSessionModel } from './session-fold.js'
import type { SessionModel } from './session-fold.js'
import { toEvent } from './sse-parser.js'

/**
 * A recorded OpenCode event stream: one `GET /event` data object per line (`{"id","type",
 * "properties"}`), as `test/fixtures/opencode/record.ts` writes them and as an app may log them.
 * Folding such a log gives exactly the chat the live watcher had after the same events, which is
 * what makes the reader testable without the binary and lets it run the reader conformance suite.
 * The log's session is `sessionId`, else the first session an event names.
 */
export interface EventLogOptions extends ReadWindowOptions {
  sessionId?: string
  /** A line longer than this is skipped and counted in `warnings` (default 16 MiB). */
  maxLineBytes?: number
}

export interface EventLogInput extends EventLogOptions {
  /** `""` is the idle empty chat (nothing recorded yet), never an error. */
  transcriptPath: string
}

export interface EventLogTail {
  readonly path: string
  /** Folds what was appended since the last call. Throws `TranscriptGoneError` when the file is gone. */
  read: () => Promise<AgentChat>
}

export function createEventLogTail(path: string, options: EventLogOptions = {}): EventLogTail {
  let model: SessionModel = createSessionModel(options.sessionId)
  // The window policy every reader shares (runstate/read-window.ts): a huge log's first line and last window.
  const { sessionId: _sessionId, ...lineOptions } = options
  const tail: JsonlTail = createJsonlTail(path, { ...lineOptions, what: 'event log' })
  let notEvents = 0
  return {
    path,
    async read() {
      await tail.read({
        onReset: () => {
          model = createSessionModel(options.sessionId)
          notEvents = 0
        },
        onRecord: (record) => {
          const event = toEvent(record.value)
          if (event) applyEvent(model, event)
          else notEvents += 1
        },
      })
      const warnings = [...tail.warnings(), ...(notEvents > 0 ? [`${path}: ${notEvents} lines are JSON but not OpenCode events (no "type")`] : [])]
      return composeChat(model, { cursor: tail.cursor(), warnings })
    },
  }
}

export async function readEventLog(input: EventLogInput): Promise<AgentChat> {
  if (input.transcriptPath === '') return composeChat(createSessionModel(input.sessionId))
  const { transcriptPath, ...options } = input
  return createEventLogTail(transcriptPath, options).read()
}
