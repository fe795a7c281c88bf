import type { ChatState } from '../contract/chat.js'
import type { Message } from '../contract/message.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../contract/dialog.js'
import { createChatController } from '../controller/index.js'
import type { ChatrailController } from '../controller/index.js'
import { createChatSession, defineChat, sendUiEvent } from '../conversation/index.js'
import type { ChatDefinition, ChatSession, ChatSessionOptions, JsonObject, SessionSnapshot, TurnTrace } from '../conversation/index.js'
import { watchFailures } from './failure-watch.js'
import { markAnswering, observePending, recordAnswer, recordAnswerFailed } from './dialog-log.js'
import type { DialogLog } from './dialog-log.js'
import { wiredListeners } from './listeners.js'
import { pendingDialogOf } from './stream-layout.js'

/**
 * One session and one controller wired together, as a renderer mounts them: a plain external
 * store with no React and no DOM, so the React hook and the Ink binding share it. Creating a
 * binding has no side effect outside its own two objects; wiring (the controller feeding
 * `session.sync`) starts with the first subscriber, so a render that React throws away leaks
 * nothing.
 */

export interface ChatBindingOptions<Ctx extends JsonObject = JsonObject> extends ChatSessionOptions<Ctx> {
  /** A different key starts a fresh session even for the same definition id and revision. */
  key?: string | number
}

export interface ChatBindingState<Ctx extends JsonObject = JsonObject> {
  chat: ChatState
  snapshot: SessionSnapshot<Ctx>
  traces: readonly TurnTrace[]
  /** Every agent dialog this mount has seen, in arrival order; pending ones have no `outcome`. */
  dialogLog: DialogLog
  /** The dialog waiting for an answer, if any (already-answered tool ids never come back). */
  pendingDialog: Dialog | undefined
  /**
   * Ids of assistant replies the user stopped (`stop()` while they streamed): the controller
   * marks them complete, as AgentsKit does, so the mark lives here (this mount only).
   */
  stopped: ReadonlySet<string>
  /**
   * Replies whose agent failed after some text, by message id: the length of that partial text.
   * The definition's fallback answer streams on into the same message; the list shows it apart.
   */
  failedAt: ReadonlyMap<string, number>
}

export interface ChatBinding<Ctx extends JsonObject = JsonObject> {
  /** `id@revision#key`: a binding serves one definition identity. */
  readonly identity: string
  readonly session: ChatSession<Ctx>
  readonly controller: ChatrailController
  /** Immutable; identity changes only when one of its parts did (for useSyncExternalStore). */
  getState: () => ChatBindingState<Ctx>
  subscribe: (listener: () => void) => () => void
  /** `controller.stop()`, remembering the replies it cut short (`stopped`). */
  stop: () => void
  /** Sends a UI event through history as a user message with `metadata.chatrail.event`. */
  sendEvent: (event: string, label?: string) => Promise<void>
  /** Answers through `session.answerDialog`; a `next-turn` result is sent as the next user message. */
  answerDialog: (toolId: string, answer: DialogAnswerInput) => Promise<DialogAnswerResult>
  /**
   * Same id and revision, new object: keep progress, use its chat config (adapter) from the next
   * turn. The caller keeps the identity (`useChatSession` makes a new binding when it changes).
   */
  updateDefinition: (definition: ChatDefinition<Ctx>) => void
  /** The mount is (again) live: cancels a release that has not run yet. */
  activate: () => void
  /** The mount went away: stops the stream now, disposes the session unless re-activated at once. */
  release: () => void
}

export function bindingIdentity(definition: Pick<ChatDefinition, 'id' | 'revision'>, key?: string | number): string {
  return `${definition.id}@${definition.revision}#${key ?? ''}`
}

export function createChatBinding<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  options: ChatBindingOptions<Ctx> = {},
): ChatBinding<Ctx> {
  const { key, ...sessionOptions } = options
  let failedAt: ReadonlyMap<string, number> = new Map()
  const streamingReply = (): Message | undefined => controller.getState().messages.findLast((message) => message.status === 'streaming' && message.role === 'assistant')
  const onFailure = (): void => {
    const reply = streamingReply()
    if (reply !== undefined && reply.content !== '') failedAt = new Map([...failedAt, [reply.id, reply.content.length]])
  }
  const watched = (chat: ChatDefinition<Ctx>['chat']): ChatDefinition<Ctx>['chat'] =>
    (chat.adapter === undefined ? chat : { ...chat, adapter: watchFailures(chat.adapter, onFailure) })
  // The session gets the watched agent from the start (a later updateChat would subscribe to a live agent twice).
  const session = createChatSession(defineChat<Ctx>({ ...definition, chat: watched(definition.chat) }), sessionOptions)
  const controller = createChatController(session.chat, { ids: sessionOptions.ids, clock: sessionOptions.clock })
  let log: DialogLog = []
  let cached: ChatBindingState<Ctx> | undefined
  let generation = 0
  let currentChat = definition.chat
  let stopped: ReadonlySet<string> = new Set()

  const notify = (): void => { listeners.notify() }
  const setLog = (next: DialogLog): void => {
    if (next === log) return
    log = next
    notify()
  }
  const observeAgent = (): void => {
    const last = controller.getState().messages.at(-1)
    setLog(observePending(log, session.getSnapshot().agent?.pendingDialog, last?.id ?? null, last?.role === 'assistant' ? last.content.length : undefined))
  }

  const getState = (): ChatBindingState<Ctx> => {
    const chat = controller.getState()
    const snapshot = session.getSnapshot()
    const traces = session.traces()
    if (cached !== undefined && cached.chat === chat && cached.snapshot === snapshot && cached.dialogLog === log && cached.stopped === stopped && cached.failedAt === failedAt
      && cached.traces.length === traces.length && cached.traces.at(-1) === traces.at(-1)) return cached
    cached = { chat, snapshot, traces, dialogLog: log, pendingDialog: pendingDialogOf(chat.messages, log), stopped, failedAt }
    return cached
  }

  const wire = (): (() => void) => {
    const offController = controller.subscribe(() => {
      session.sync(controller.getState().messages)
      notify()
    })
    const offSession = session.subscribe(() => {
      observeAgent()
      notify()
    })
    // Catch up with whatever happened while nobody listened.
    session.sync(controller.getState().messages)
    observeAgent()
    return () => { offController(); offSession() }
  }

  const listeners = wiredListeners(wire)

  const answerDialog = async (toolId: string, answer: DialogAnswerInput): Promise<DialogAnswerResult> => {
    setLog(markAnswering(log, toolId, true))
    let result: DialogAnswerResult
    try {
      result = await session.answerDialog(toolId, answer)
    } catch (error) {
      setLog(recordAnswerFailed(log, toolId, session.getSnapshot().agent?.pendingDialog))
      throw error
    }
    setLog(recordAnswer(log, toolId, answer))
    if (result.delivered === 'next-turn') await controller.send(result.text)
    return result
  }

  const stop = (): void => {
    // One turn streams at a time: its reply is the last streaming assistant message.
    const reply = streamingReply()
    if (reply !== undefined) stopped = new Set([...stopped, reply.id])
    controller.stop()
    notify()
  }

  const updateDefinition = (next: ChatDefinition<Ctx>): void => {
    if (next.chat === currentChat) return
    currentChat = next.chat
    session.updateChat(watched(next.chat))
    controller.updateConfig(session.chat)
  }

  return {
    identity: bindingIdentity(definition, key),
    session,
    controller,
    getState,
    subscribe: listeners.subscribe,
    stop,
    sendEvent: (event, label) => sendUiEvent(controller, event, label),
    answerDialog,
    updateDefinition,
    activate: () => { generation += 1 },
    release: () => {
      controller.stop()
      const released = ++generation
      // StrictMode unmounts and remounts synchronously: dispose only if no remount followed.
      queueMicrotask(() => { if (generation === released) session.dispose() })
    },
  }
}
