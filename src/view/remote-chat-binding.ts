import type { ChatState } from '../contract/chat.js'
import type { Message } from '../contract/message.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../contract/dialog.js'
import { httpAdapter, restoredFailure, restoredMessages, versionPlaceOf, type RestoredUiMessage } from '../client/index.js'
import type { ChatrailPartData, VersionPositions } from '../client/index.js'
import { createChatController } from '../controller/index.js'
import type { ChatrailController } from '../controller/index.js'
import { createChatSession, defineChat, sendUiEvent } from '../conversation/index.js'
import type { ChatDefinition, JsonObject, SessionSnapshot, TurnTrace } from '../conversation/index.js'
import { bindingIdentity } from './chat-binding.js'
import type { ChatBinding, ChatBindingState } from './chat-binding.js'
import { restartEventOf } from './event-routes.js'
import { markAnswering, observePending, recordAnswer, recordAnswerFailed } from './dialog-log.js'
import type { DialogLog } from './dialog-log.js'
import { serverSideAgent } from './server-side-agent.js'
import { wiredListeners } from './listeners.js'
import { pendingDialogOf } from './stream-layout.js'
import { onContinuation } from './approval-continuations.js'
import { streamUrlOf } from '../client/resume-turn.js'

/**
 * A chat binding over a chatrail server (`createChatHandler`) instead of a local session: the
 * controller talks to the server through `httpAdapter`, and the conversation (state, events,
 * actions, traces, the live agent and its pending dialog) mirrors the server's `data-chatrail`
 * parts. The server routes every turn; the definition here is only read for what the UI draws
 * from it (event buttons, suggestion chips, final states), so it must be the server's definition
 * (on the page, built with `serverSideAgent` as its agent: the real one stays on the server).
 * The context is not mirrored (the server does not send it): `snapshot.context` stays the
 * definition's initial context.
 *
 * Versions (an edit or a regenerate keeps what it replaced) are the server's, which keeps them in
 * its store: the local controller keeps none of its own (`branches: false`, a version switched to
 * in the page would not be the one the server answers from), and the binding's `branchesOf` and
 * `switchBranch` read and switch the server's (`chatrail.versions`, and `POST { action:
 * 'switch-version' }` answered with the conversation as shown), so the picker survives a reload.
 */
export interface RemoteChatOptions {
  /** The handler's URL (`/api/chat`). */
  readonly api: string
  readonly conversationId: string
  readonly headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  readonly fetch?: typeof globalThis.fetch
  readonly credentials?: RequestCredentials
  /**
   * Load the stored conversation (GET `<api>?id=`) when the mount goes live, and follow the turn
   * still running in it, if any (its stream, `GET <api>/<id>/stream`). Default true.
   */
  readonly restore?: boolean
  /** A different key starts a fresh binding for the same conversation. */
  readonly key?: string | number
  readonly ids?: () => string
  readonly clock?: () => Date
}

/** What GET (and a version switch) answers: the conversation as the server shows it. */
interface StoredBody {
  readonly messages?: RestoredUiMessage[]
  readonly chatrail?: ChatrailPartData
  readonly running?: boolean
}

export function createRemoteChatBinding<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, options: RemoteChatOptions): ChatBinding<Ctx> {
  const { api, conversationId } = options
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const notify = (): void => { listeners.notify() }
  // A session that never runs a turn: it holds the definition (routes for buttons) and the initial snapshot.
  const session = createChatSession(defineChat<Ctx>({ ...definition, chat: { adapter: serverSideAgent } }), { lint: false, sessionId: conversationId })
  let snapshot: SessionSnapshot<Ctx> = session.getSnapshot()
  let traces: readonly TurnTrace[] = []
  let log: DialogLog = []
  let stopped: ReadonlySet<string> = new Set()
  let cached: ChatBindingState<Ctx> | undefined
  let versions: VersionPositions = {}

  const finalOf = (state: string): boolean => (definition.conversation.states as Record<string, { final?: boolean } | undefined>)[state]?.final === true
  const mirror = (data: Pick<ChatrailPartData, 'state' | 'events' | 'actions' | 'restart' | 'trace' | 'agent' | 'versions'>): void => {
    // The server names the restart event; an older server that doesn't is answered from the definition (the server's).
    const restart = data.restart ?? restartEventOf(definition.conversation.routes, data.state)
    snapshot = { state: data.state, context: snapshot.context, events: [...data.events], actions: [...data.actions], final: finalOf(data.state), ...(restart === undefined ? {} : { restart }), ...(data.agent ? { agent: data.agent } : {}) }
    if (data.trace) traces = [...traces, data.trace]
    // a turn's snapshot names the versions when there are any (their positions over the whole history)
    if (data.versions) versions = data.versions
    const last = controller.getState().messages.at(-1)
    log = observePending(log, data.agent?.pendingDialog, last?.id ?? null, last?.role === 'assistant' ? last.content.length : undefined)
    notify()
  }

  const headers = async (): Promise<Headers> => new Headers(typeof options.headers === 'function' ? await options.headers() : options.headers)
  const post = async (body: unknown): Promise<Response> => {
    const init = await headers()
    init.set('content-type', 'application/json')
    return doFetch(api, { method: 'POST', headers: init, body: JSON.stringify(body), ...(options.credentials ? { credentials: options.credentials } : {}) })
  }

  const adapter = httpAdapter({ api, conversationId, onSnapshot: mirror, ...(options.headers ? { headers: options.headers } : {}), ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.credentials ? { credentials: options.credentials } : {}) })
  // The server keeps the history (an edit or regenerate truncates its stored copy): no versions here.
  const local = createChatController({ adapter }, { ids: options.ids, clock: options.clock, branches: false })

  // A restored conversation that ends in a failed answer reads as a live failure did: while nothing
  // ran since (the controller idle, no error of its own), the chat is in `error` with that failure.
  let shownFor: ChatState | undefined
  let shown: ChatState | undefined
  const shownChat = (raw: ChatState): ChatState => {
    if (raw !== shownFor) {
      shownFor = raw
      const failure = raw.status === 'idle' && raw.error === null ? restoredFailure(raw.messages.at(-1)) : undefined
      shown = failure ? { ...raw, status: 'error', error: failure } : raw
    }
    return shown as ChatState
  }

  const getState = (): ChatBindingState<Ctx> => {
    const chat = shownChat(controller.getState())
    if (cached !== undefined && cached.chat === chat && cached.snapshot === snapshot && cached.traces === traces && cached.dialogLog === log && cached.stopped === stopped) return cached
    cached = { chat, snapshot, traces, dialogLog: log, pendingDialog: pendingDialogOf(chat.messages, log), stopped, failedAt: new Map() }
    return cached
  }

  /**
   * The conversation as the server shows it (GET, or a switch's answer) into the controller; `keep`
   * names a message whose id stays (the head of a switched reply, so the page keeps its element and focus).
   */
  const show = (body: StoredBody, keep?: { at: number; id: string }): Message[] => {
    const now = options.clock?.() ?? new Date()
    const messages: Message[] = restoredMessages(body.messages ?? [], now)
    const kept = keep && messages[keep.at]
    if (kept) messages[keep.at] = { ...kept, id: keep.id }
    // a turn still running on the server (a reload mid-answer): its user message is the last one
    const running = body.running === true ? messages.at(-1) : undefined
    if (messages.length > 0 || keep) {
      // an answer placeholder for the controller's regenerate to replace with the followed stream
      controller.setMessages(running?.role === 'user' ? [...messages, { id: `${running.id}:resuming`, role: 'assistant', status: 'complete', createdAt: now, content: '' }] : messages)
      // a regenerate of a restored answer must run the turn again, not fetch the stored answer; an edit of one is a new submit
      adapter.noteAnswered(messages.filter((message, index) => message.role === 'user' && messages[index + 1]?.role === 'assistant'))
    }
    versions = body.chatrail?.versions ?? {}
    if (body.chatrail) mirror(body.chatrail)
    return messages
  }

  /** The stored conversation, for a reloaded page: only when nothing was sent in the meantime. */
  const restore = async (): Promise<void> => {
    const url = `${api}${api.includes('?') ? '&' : '?'}id=${encodeURIComponent(conversationId)}`
    const response = await doFetch(url, { headers: await headers(), ...(options.credentials ? { credentials: options.credentials } : {}) })
    if (!response.ok) return
    const body = (await response.json()) as StoredBody
    if (controller.getState().messages.length > 0) return
    const messages = show(body)
    const running = body.running === true ? messages.at(-1) : undefined
    if (running?.role === 'user') {
      // the next source for it follows the server's turn (GET <api>/<id>/stream) instead of posting it
      adapter.noteRunning(running.id)
      void controller.regenerate(`${running.id}:resuming`)
    }
  }

  /**
   * An approval card on this page decided a call the last answer paused on, and the server continues
   * that answer (approval-continuations.ts): once the continuation is stored (its stream read to the
   * end, `GET <api>/<id>/stream`), the conversation is shown as the server stores it, the answer
   * grown in place and no new user message. Skipped when the page moved on meanwhile.
   */
  const followContinuation = async (): Promise<void> => {
    const before = controller.getState().messages.at(-1)?.id
    const init = { headers: await headers(), ...(options.credentials ? { credentials: options.credentials } : {}) }
    const followed = await doFetch(streamUrlOf(api, conversationId), init)
    // read to its end (204: it ended already); the parts themselves are the stored answer's
    if (followed.ok && followed.body) await followed.body.pipeTo(new WritableStream())
    const response = await doFetch(`${api}${api.includes('?') ? '&' : '?'}id=${encodeURIComponent(conversationId)}`, init)
    if (!response.ok) return
    const body = (await response.json()) as StoredBody
    const now = controller.getState()
    if (body.running === true || now.status === 'streaming' || now.messages.at(-1)?.id !== before) return
    show(body)
  }

  let restored = false
  const listeners = wiredListeners(() => {
    const off = controller.subscribe(notify)
    const offContinuation = onContinuation(api, conversationId, () => void followContinuation().catch(() => undefined))
    if (!restored && options.restore !== false) {
      restored = true
      void restore().catch(() => undefined) // a failed restore leaves an empty chat; the next turn still works
    }
    return () => {
      offContinuation()
      off()
    }
  })

  const answerDialog = async (toolId: string, answer: DialogAnswerInput): Promise<DialogAnswerResult> => {
    log = markAnswering(log, toolId, true)
    notify()
    const pending: Dialog | undefined = snapshot.agent?.pendingDialog
    try {
      const response = await post({ id: conversationId, action: 'answer-dialog', toolId, answer })
      const body = (await response.json().catch(() => ({}))) as { delivered?: unknown; error?: { code?: string; message?: string } }
      if (!response.ok || body.delivered !== true) throw new Error(body.error?.message ?? `The server did not deliver the answer (${response.status}).`)
    } catch (error) {
      log = recordAnswerFailed(log, toolId, pending)
      notify()
      throw error
    }
    log = recordAnswer(log, toolId, answer)
    notify()
    return { delivered: 'live' }
  }

  /**
   * Shows version `index` of the place `messageId` heads, on the server (one fenced write there),
   * then in the page from its answer. True when asked (the page changes once the server answered);
   * false for a message without such a version or the one shown, as the controller's.
   */
  const switchBranch = (messageId: string, index: number): boolean => {
    // a bad index throws the controller's own ConfigError
    if (!Number.isInteger(index) || index < 0) return local.switchBranch(messageId, index)
    const place = versionPlaceOf(controller.getState().messages, versions, messageId)
    if (place === undefined || index >= place.position.count || index === place.position.index) return false
    if (controller.getState().status === 'streaming') stop()
    const keep = { at: place.at, id: messageId }
    void post({ id: conversationId, action: 'switch-version', messageId: place.messageId, place: place.place, index })
      .then(async (response) => {
        // a refused switch (a turn running, a version gone) leaves the page as the server still shows it
        if (response.ok) show((await response.json()) as StoredBody, keep)
      })
      .catch(() => undefined)
    return true
  }
  const controller: ChatrailController = { ...local, branchesOf: (messageId) => versionPlaceOf(local.getState().messages, versions, messageId)?.position ?? { index: 0, count: 1 }, switchBranch }

  const stop = (): void => {
    const reply = controller.getState().messages.findLast((message) => message.status === 'streaming' && message.role === 'assistant')
    if (reply !== undefined) stopped = new Set([...stopped, reply.id])
    const wasStreaming = controller.getState().status === 'streaming'
    controller.stop()
    // the server finishes a turn whose client went away; a stop must say so explicitly
    if (wasStreaming) void post({ id: conversationId, action: 'stop' }).catch(() => undefined)
    notify()
  }

  return {
    identity: `remote:${conversationId}:${bindingIdentity(definition, options.key)}`,
    session,
    controller,
    getState,
    subscribe: listeners.subscribe,
    stop,
    sendEvent: (event, label) => sendUiEvent(controller, event, label),
    answerDialog,
    updateDefinition: () => undefined,
    activate: () => undefined,
    release: () => {
      controller.stop()
    },
  }
}
