import type { ChatState } from '../../src/contract/chat.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../../src/contract/dialog.js'
import type { ChatrailController } from '../../src/controller/index.js'
import type { ChatDefinition, ChatSession, JsonObject, SessionSnapshot, TurnTrace } from '../../src/conversation/index.js'
import { bindingIdentity, createChatBinding } from '../../src/view/chat-binding.js'
import type { ChatBindingOptions } from '../../src/view/chat-binding.js'
import type { ChatView, ChatViewSnapshot } from '../../src/view/chat-view.js'
import type { DialogLog } from '../../src/view/dialog-log.js'
import { useBindingView } from './use-chat-view.js'

/**
 * `useChatSession(definition, options?)`: one chatrail session and one controller per mount.
 * Renderer-neutral (no react-dom, no DOM): the React components and the Ink binding both use it.
 */

export type UseChatSessionOptions<Ctx extends JsonObject = JsonObject> = ChatBindingOptions<Ctx>

export interface UseChatSessionReturn<Ctx extends JsonObject = JsonObject> extends ChatState {
  send: ChatrailController['send']
  stop: ChatrailController['stop']
  retry: ChatrailController['retry']
  regenerate: ChatrailController['regenerate']
  edit: ChatrailController['edit']
  setInput: ChatrailController['setInput']
  setMessages: ChatrailController['setMessages']
  clear: ChatrailController['clear']
  proposeToolCall: ChatrailController['proposeToolCall']
  approve: ChatrailController['approve']
  deny: ChatrailController['deny']
  /** The conversation: state, context, events, actions, final, and the agent's run state. */
  snapshot: SessionSnapshot<Ctx>
  traces: readonly TurnTrace[]
  /** Every agent dialog seen by this mount, in arrival order (see `layoutStream`). */
  dialogLog: DialogLog
  pendingDialog: Dialog | undefined
  /** Replies the user stopped (`stop()` while they streamed); shown with a "Stopped" mark. */
  stopped: ReadonlySet<string>
  /** Replies whose agent failed after some text: where the partial answer ends (a fallback answer follows). */
  failedAt: ReadonlyMap<string, number>
  /** A UI event through history: a user message with `metadata.chatrail.event`. */
  sendEvent: (event: string, label?: string) => Promise<void>
  /** `session.answerDialog`; a `next-turn` result's text is sent as the next user message. */
  answerDialog: (toolId: string, answer: DialogAnswerInput) => Promise<DialogAnswerResult>
  session: ChatSession<Ctx>
  controller: ChatrailController
  /** The chatrail/view store this mount reads (its actions: `interact`, `approve`, `switchVersion`, …). */
  view: ChatView<Ctx>
  /** The view's snapshot: every UI decision (stream items, lifecycle targets, event bar, versions, failure, …). */
  ui: ChatViewSnapshot<Ctx>
}

/**
 * One binding per mount (`createChatBinding`), replaced when the definition's id / revision or
 * `options.key` changes, read through its view (use-chat-view.ts); a new definition object of the
 * same identity keeps progress and uses its chat config (adapter) from the next turn.
 */
export function useChatSession<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  options?: UseChatSessionOptions<Ctx>,
): UseChatSessionReturn<Ctx> {
  return useBindingView(bindingIdentity(definition, options?.key), () => createChatBinding(definition, options), definition)
}
