import type { AdapterContext, AdapterRequest } from '../contract/adapter.js'
import { HISTORY_VIEW, type HistoryView } from '../contract/history-view.js'
import type { ChatConfig } from '../contract/chat.js'
import type { RetrievedDocument } from '../contract/memory.js'
import type { Message } from '../contract/message.js'
import type { ToolDefinition } from '../contract/tool.js'
import { LAZY_MESSAGES_FROM } from './history-reads.js'
import type { MessageList } from './message-list.js'
import { formatRetrievedDocuments, RETRIEVED_DOCUMENTS_MESSAGE_ID, SYSTEM_PROMPT_MESSAGE_ID } from './request-messages.js'

export interface RequestInputs {
  /** The history; the request gets its own copy, made in one allocation with the prepended messages. */
  messages: MessageList
  config: ChatConfig
  systemPrompt: string | undefined
  tools: ToolDefinition[]
  documents: RetrievedDocument[] | undefined
  createdAt: Date
}

/**
 * Pure: the `AdapterRequest` for one model call (agentskit-contract §2.4). `messages` is an array
 * of the history including the empty streaming assistant. From `LAZY_MESSAGES_FROM` messages on
 * it is built on first read and then kept (the request is the adapter's to keep; the list is
 * persistent, so a late read sees the turn's history): an adapter that never reads it (a CLI
 * agent keeps its own transcript and reads only the newest message, through the history view)
 * costs no history-sized copy, so a turn stays O(1) at any history (issue 20's soak).
 * A system-prompt message is prepended unless history already holds that exact system message;
 * retrieved documents go first of all. Neither prepended message enters state. `context` always
 * carries all five keys.
 */
export function buildAdapterRequest(inputs: RequestInputs): AdapterRequest {
  const { messages, config, systemPrompt, tools, documents, createdAt } = inputs
  const retrieved = documents && documents.length > 0 ? documents : undefined
  const system = (id: string, content: string): Message => ({ id, role: 'system', content, status: 'complete', createdAt })
  const prefix: Message[] = []
  if (retrieved) prefix.push(system(RETRIEVED_DOCUMENTS_MESSAGE_ID, formatRetrievedDocuments(retrieved)))
  if (systemPrompt && !messages.hasSystemText(systemPrompt)) {
    prefix.push(system(SYSTEM_PROMPT_MESSAGE_ID, systemPrompt))
  }
  const context: AdapterContext = {
    systemPrompt,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    tools,
    metadata: retrieved && { retrievedDocuments: retrieved },
  }
  // A short history is copied at once: cheaper than the lazy request (an object with its own
  // accessors costs ≈0.3 µs to build), and the session reads an array as cheaply as the view.
  if (prefix.length + messages.length < LAZY_MESSAGES_FROM) return { messages: messages.copy(prefix), context }
  return lazyRequest(messages, prefix, context)
}

/** A request whose `messages` is built on first read, with a history view the session reads instead. */
function lazyRequest(messages: MessageList, prefix: readonly Message[], context: AdapterContext): AdapterRequest {
  let copy: Message[] | undefined
  const request: AdapterRequest = {
    get messages(): Message[] {
      return (copy ??= messages.copy(prefix))
    },
    // An adapter may replace the array on its own request object; the setter keeps that working.
    set messages(value: Message[]) {
      copy = value
    },
    context,
  }
  // The session reads the newest messages through this view, never building the array (an array
  // set by the adapter is what the view shows from then on).
  const view: HistoryView = {
    get length() {
      return copy ? copy.length : prefix.length + messages.length
    },
    at: (index) => {
      if (copy) return copy.at(index)
      // Negative indexes count from the end, as `Array.prototype.at`.
      const at = index < 0 ? index + prefix.length + messages.length : index
      return at < 0 ? undefined : at < prefix.length ? prefix[at] : messages.at(at - prefix.length)
    },
  }
  Object.defineProperty(request, HISTORY_VIEW, { value: view })
  return request
}
