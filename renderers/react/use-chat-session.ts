import { useEffect, useMemo, useRef, useSyncExternalStore } from './react-api.js'
import type { ChatState } from '../../src/contract/chat.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../../src/contract/dialog.js'
import type { ChatrailController } from '../../src/controller/index.js'
import type { ChatDefinition, ChatSession, JsonObject, SessionSnapshot, TurnTrace } from '../../src/conversation/index.js'
import { bindingIdentity, createChatBinding } from '../../src/view/chat-binding.js'
import type { ChatBinding, ChatBindingOptions } from '../../src/view/chat-binding.js'
import type { DialogLog } from '../../src/view/dialog-log.js'

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
}

/**
 * The binding lives in a ref: created during the first render (StrictMode's double render reuses
 * the ref, so there is one session per mount), replaced when the definition's id / revision or
 * `options.key` changes. Effects only attach and release, so StrictMode's double effects start no
 * second session and no request. The store has a server snapshot, so `renderToString` works.
 */
export function useChatSession<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  options?: UseChatSessionOptions<Ctx>,
): UseChatSessionReturn<Ctx> {
  const identity = bindingIdentity(definition, options?.key)
  const ref = useRef<ChatBinding<Ctx> | null>(null)
  if (ref.current === null || ref.current.identity !== identity) ref.current = createChatBinding(definition, options)
  const binding = ref.current

  useEffect(() => {
    binding.activate()
    return binding.release
  }, [binding])
  useEffect(() => binding.updateDefinition(definition), [binding, definition])

  const state = useSyncExternalStore(binding.subscribe, binding.getState, binding.getState)
  return useMemo(() => {
    const { chat, ...conversation } = state
    const { session, controller, sendEvent, answerDialog, stop } = binding
    // The controller's own functions (stable identities), its state, then the conversation's.
    return { ...controller, ...chat, ...conversation, stop, sendEvent, answerDialog, session, controller }
  }, [binding, state])
}
