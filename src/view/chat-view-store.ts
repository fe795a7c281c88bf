import type { ChatState } from '../contract/chat.js'
import type { ComponentPart } from '../contract/component-part.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../contract/dialog.js'
import type { Message } from '../contract/message.js'
import type { StreamStatus } from '../contract/stream.js'
import type { BranchPosition } from '../controller/index.js'
import { getLifecycleTargets } from '../controller/lifecycle-targets.js'
import type { LifecycleTargets } from '../controller/lifecycle-targets.js'
import type { ChatDefinition, JsonObject, SessionSnapshot, TurnTrace } from '../conversation/index.js'
import { agentFailedIn } from './agent-failure.js'
import type { ApprovalRecord, ApprovalSource } from './approval-source.js'
import type { WaitingApprovals } from './waiting-approvals-store.js'
import type { ChatBinding, ChatBindingState } from './chat-binding.js'
import type { ChatLabels } from './chat-labels.js'
import { isComponentPart } from '../contract/component-chunk.js'
import { componentRules, loadComponentRules, whenComponentRules } from './component-rules.js'
import type { ComponentAnswer } from './component-key.js'
import type { DialogLog } from './dialog-log.js'
import { entryLabels } from './entry-labels.js'
import type { EventBar, LabelledSuggestion } from './event-bar.js'
import { humanizeEvent } from './event-routes.js'
import type { Failure } from './failure.js'
import type { LatestVersions } from './latest-versions.js'
import { messageLabels } from './message-labels.js'
import { wiredListeners } from './listeners.js'
import type { PendingComponent } from './pending-component.js'
import type { PresentationRulesSource } from './presentation-rules.js'
import { statusWordsOf } from './status-words.js'
import { layoutStream } from './stream-layout.js'
import type { StreamItem } from './stream-layout.js'

/**
 * `createChatView(binding, options?)`: everything a chat UI decides, once, as a plain external
 * store (`subscribe` / `getSnapshot`, no framework). A binding (`createChatBinding` for a local
 * session, `createRemoteChatBinding` for a chatrail server) owns the session and the controller;
 * the view reads it and derives what the screen shows (the stream's layout, which message can be
 * retried or edited, the pending dialog, the event bar, the components already answered, the
 * approvals waiting, the versions, the failure to report, the status words), and offers the
 * actions a screen has. React mounts it with `useSyncExternalStore`, Vue with a `shallowRef`,
 * Svelte with a `readable`, Ink and the serve page through chatrail/react's hook: each binding
 * only draws.
 */

/** The words of `ChatViewSnapshot.labels`: the first screen's and the messages' (`entryLabels`, `messageLabels`). */
export type ViewLabels = Pick<ChatLabels, keyof typeof entryLabels | keyof typeof messageLabels>

export interface ChatViewOptions {
  /** The app's words over the English defaults (`ChatLabels`); what it leaves out stays English. */
  readonly labels?: Partial<ChatLabels>
  /** Display names for machine states (the badge); default: the state name humanized. */
  readonly stateLabels?: Readonly<Record<string, string>>
  /** Labels for event buttons and chips, by UI event then machine event (before the definition's). */
  readonly eventLabels?: Readonly<Record<string, string>>
  /** Where confirmation records are read and decided (`coordinatorApprovals`, `serverApprovals`): fills `approvals`. */
  readonly approvals?: ApprovalSource
}

/** The status line: the conversation's step and what is going on, in plain words. */
export interface StateBadge {
  /** The machine state. */
  readonly state: string
  /** Its display name (`stateLabels`, else humanized: `order_lookup` → "Order lookup"). */
  readonly name: string
  /** What is going on (`statusWordsOf`): waiting for an answer, working, failed, finished, ready. */
  readonly words: string
}

/** Everything a chat UI shows, decided once. Immutable; a new object only when something in it changed. */
export interface ChatViewSnapshot<Ctx extends JsonObject = JsonObject> {
  /** The controller's state (messages, status, input, error, usage). */
  readonly chat: ChatState
  readonly messages: readonly Message[]
  readonly status: StreamStatus
  /** The conversation: state, context, events, actions, final, restart, the agent's run state. */
  readonly conversation: SessionSnapshot<Ctx>
  readonly traces: readonly TurnTrace[]
  /** The message stream as drawn: messages (split around a dialog or a fallback) and dialog cards (`layoutStream`). */
  readonly items: readonly StreamItem[]
  /** Replies the user stopped (shown with a "Stopped" mark). */
  readonly stopped: ReadonlySet<string>
  /** Replies whose agent failed after some text: where the partial answer ends. */
  readonly failedAt: ReadonlyMap<string, number>
  /** Which message Retry / Regenerate / Edit act on now (none while streaming). */
  readonly lifecycle: LifecycleTargets
  /**
   * The reply a Regenerate button is offered on: the last one, right after a user message, idle,
   * with no failure reported (then the failure's Retry is the one way to ask again).
   */
  readonly regenerable: string | undefined
  readonly dialogLog: DialogLog
  /** The dialog waiting for an answer (`answerDialog`), if any. */
  readonly pendingDialog: Dialog | undefined
  /** A reply streams or a dialog waits: event buttons and chips are disabled. */
  readonly busy: boolean
  /** The bar under the messages: event buttons, the end of the conversation, or chips after a restart. */
  readonly eventBar: EventBar
  /** What the user can say now (commands and UI events, each labelled): the welcome's chips. */
  readonly suggestions: readonly LabelledSuggestion[]
  readonly badge: StateBadge
  /**
   * False while the component rules load (the first time the chat shows a component part, a moment;
   * chatrail/react loads them with its component views): until then `componentAnswers` holds only
   * clicks in flight and `pendingComponent` is none. `interact` waits for them, so nothing is sent twice meanwhile.
   */
  readonly componentsReady: boolean
  /**
   * True once the presentation rules are in: always with `createChatView`. A view that loads them
   * lazily (chatrail/react's, which draws these parts with UI it loads lazily too) is false until
   * its first subscribe has loaded them; meanwhile `eventBar` has no buttons, `suggestions`,
   * `approvals`, `failure`, `regenerable` and `latestVersions` are empty.
   */
  readonly presentationReady: boolean
  /** Components answered, in history or by a click in flight, by `componentKeyOf(messageId, instanceId)`. */
  readonly componentAnswers: ReadonlyMap<string, ComponentAnswer>
  /** The newest choice list or button group the user can answer now (a terminal's picker). */
  readonly pendingComponent: PendingComponent | undefined
  /** Confirmation records no message shows: pending, or decided here, with the outcome (needs `options.approvals`; `createWaitingApprovals`). */
  readonly approvals: readonly ApprovalRecord[]
  /** The messages with more than one version (an edit or a regenerate kept the one replaced), by id. */
  readonly versions: ReadonlyMap<string, BranchPosition>
  /** The newest message with versions (what Ctrl+←/→ walk in a terminal). */
  readonly latestVersions: LatestVersions | undefined
  /** The failure to report (a failed turn, or an agent the fallback answered for), unless dismissed or streaming. */
  readonly failure: Failure | undefined
  /**
   * The words the snapshot speaks (the status line, the failure, Start over, and the rest of the
   * first screen's and the messages' words), the app's over the English defaults. The words of the
   * parts a binding loads lazily (dialog cards, components, tool cards, approvals) stay with them:
   * `dialogLabels`, `componentLabels`, `extrasLabels`, `approvalLabels`, merged with `mergeLabels`.
   */
  readonly labels: ViewLabels
}

/**
 * The binding a view mounts, as every binding has it (`createChatBinding`, `createRemoteChatBinding`):
 * a mount whose app hands it a new definition object passes it on with `view.binding.updateDefinition`
 * (a local binding keeps its progress and uses the new chat config from the next turn; a remote
 * one keeps the definition it started with, the server's being the one that runs).
 */
export type ChatViewBinding<Ctx extends JsonObject = JsonObject> = Omit<ChatBinding<Ctx>, 'updateDefinition'> & {
  // A method, not a function property: a view of a chat with its own context type is still a view
  // of a chat (parts take `ChatView<JsonObject>`), which a parameter of type `Ctx` would forbid.
  updateDefinition(definition: ChatDefinition<Ctx>): void
}

export interface ChatView<Ctx extends JsonObject = JsonObject> {
  readonly binding: ChatViewBinding<Ctx>
  /** Calls `listener` after every change; returns the unsubscribe. The first subscriber wires the binding. */
  subscribe: (listener: () => void) => () => void
  /** The current snapshot; the same object until something in it changed (`useSyncExternalStore`-safe). */
  getSnapshot: () => ChatViewSnapshot<Ctx>
  send: (text: string) => Promise<void>
  /** Stops the reply that streams, marking it stopped. */
  stop: () => void
  retry: () => Promise<void>
  regenerate: (messageId?: string) => Promise<void>
  edit: (messageId: string, text: string) => Promise<void>
  setInput: (value: string) => void
  /** Fires a UI event through history (a user message with `metadata.chatrail.event`). */
  sendEvent: (event: string, label?: string) => Promise<void>
  /** Answers the dialog `toolId` (a `next-turn` answer is sent as the next user message). */
  answerDialog: (toolId: string, answer: DialogAnswerInput) => Promise<DialogAnswerResult>
  /**
   * Sends an interaction with component `part` of answer `messageId` (a choice picked, a button
   * pressed, a form sent), at most once per component: false, and nothing sent, when history
   * already answers it or a send for it is in flight (from this view or another over the same
   * binding). A send that fails frees the component for another try (and rejects).
   */
  interact: (messageId: string, part: ComponentPart, event: string, value?: unknown, label?: string) => Promise<boolean>
  /** Approves the confirmation `token` through `options.approvals`; the record it answers is shown. */
  approve: (token: string) => Promise<ApprovalRecord>
  reject: (token: string, reason?: string) => Promise<ApprovalRecord>
  /** Reads the waiting records again (done on the first subscribe and after every turn). */
  refreshApprovals: () => Promise<void>
  /** Shows version `index` of the message `messageId`; false when there is no such other version. */
  switchVersion: (messageId: string, index: number) => boolean
  /** Hides the failure shown until another one comes. */
  dismissFailure: () => void
  /** Stops listening and releases the binding (its stream stops, a local session is disposed). */
  dispose: () => void
}

/**
 * Clicks in flight, per binding: a second view over the same binding (a remount, a reload of the
 * view) sees them too, so a component is sent at most once until history answers it.
 */
const inFlightByBinding = new WeakMap<object, Map<string, ComponentAnswer>>()

const noApprovals: readonly ApprovalRecord[] = Object.freeze([])

/**
 * A click's key: `componentKeyOf(messageId, instanceId)` (component-key.ts), the key the component
 * rules give history's answers, written out here because those rules load lazily and import that
 * module: were the store to import it too, a bundler would split it off into a chunk shared with
 * the app's entry, one more gzip stream for its first screen. test/view/component-rules.test.ts
 * holds the two to the same key.
 */
export const clickKeyOf = (messageId: string, instanceId: string): string => `${messageId}:${instanceId}`

/**
 * The view store over `binding` with its presentation rules from `rules` (presentation-rules.ts):
 * `createChatView` (chat-view.ts) hands them in at once, `createLazyChatView` loads them on the
 * first subscribe.
 */
export function createChatViewStore<Ctx extends JsonObject>(binding: ChatViewBinding<Ctx>, options: ChatViewOptions, rules: PresentationRulesSource): ChatView<Ctx> {
  const { controller, session } = binding
  const labels: ViewLabels = { ...entryLabels, ...messageLabels, ...options.labels }
  let inFlight = inFlightByBinding.get(binding)
  if (inFlight === undefined) {
    inFlight = new Map()
    inFlightByBinding.set(binding, inFlight)
  }
  const clicks = inFlight
  let approvals: WaitingApprovals | undefined
  /** The confirmation records' store, once the rules that make it are in (with `options.approvals`). */
  const approvalsNow = (): WaitingApprovals | undefined => {
    const present = rules.current()
    if (approvals === undefined && options.approvals !== undefined && 'waitingApprovalsWith' in present) approvals = present.waitingApprovalsWith(options.approvals, wiredListeners)
    return approvals
  }
  let dismissed: object | undefined
  let revision = 0
  let cached: { snapshot: ChatViewSnapshot<Ctx>; state: ChatBindingState<Ctx>; revision: number } | undefined
  let versionsFor: { ids: string; conversation: unknown } | undefined
  let versions: ReadonlyMap<string, BranchPosition> = new Map()

  const notify = (): void => { listeners.notify() }
  /** A change of the view's own state (a click, a record, a dismiss): a new snapshot. */
  const changed = (): void => {
    revision += 1
    notify()
  }

  /**
   * Versions change with the messages shown (an edit, a regenerate or a switch gives new ids) or,
   * on a server, with its snapshot: not with the tokens of a streaming reply, so they are asked
   * of the controller again only then (each `branchesOf` reads the whole history).
   */
  const versionsOf = (messages: readonly Message[], conversation: unknown): ReadonlyMap<string, BranchPosition> => {
    const ids = messages.map((message) => message.id).join('\n')
    if (versionsFor?.ids === ids && versionsFor.conversation === conversation) return versions
    const found = new Map<string, BranchPosition>()
    for (const message of messages) {
      const position = controller.branchesOf(message.id)
      if (position.count > 1) found.set(message.id, position)
    }
    versionsFor = { ids, conversation }
    versions = found
    return versions
  }

  const getSnapshot = (): ChatViewSnapshot<Ctx> => {
    const state = binding.getState()
    if (cached !== undefined && cached.state === state && cached.revision === revision) return cached.snapshot
    const { chat, snapshot: conversation, traces, dialogLog, pendingDialog, stopped, failedAt } = state
    const { messages, status } = chat
    const catalog = session.definition.components
    const showsComponents = messages.some((message) => message.role === 'assistant' && message.parts?.some(isComponentPart) === true)
    const components = showsComponents ? componentRules() : undefined
    if (showsComponents && components === undefined) void loadComponentRules().catch(() => undefined) // a failed load: interact says so
    const fromHistory = components?.componentAnswersOf(messages, catalog)
    // what history answers wins over a click in flight (the session took the first interaction)
    const componentAnswers = fromHistory === undefined ? new Map(clicks) : clicks.size === 0 ? fromHistory : new Map([...clicks, ...fromHistory])
    const pending = components?.pendingComponentOf(messages, catalog)
    const busy = status === 'streaming' || pendingDialog !== undefined
    const present = rules.current()
    const ready = 'presentationOf' in present
    const shownVersions = versionsOf(messages, conversation)
    const { failure, ...shown } = ready
      ? present.presentationOf({ definition: session.definition, state, busy, versions: shownVersions, eventLabels: options.eventLabels, labels })
      : present
    const waiting = approvalsNow()
    const snapshot: ChatViewSnapshot<Ctx> = {
      chat,
      messages,
      status,
      conversation,
      traces,
      items: layoutStream(messages, dialogLog, failedAt),
      stopped,
      failedAt,
      // The store's own, not the presentation rules': the controller's entry exports the function,
      // so its code is in every app's first load anyway, and a lazy chunk importing it too would
      // split it off into a chunk of its own, one more gzip stream for the first screen.
      lifecycle: getLifecycleTargets(messages, status),
      ...shown,
      dialogLog,
      pendingDialog,
      busy,
      badge: {
        state: conversation.state,
        name: options.stateLabels?.[conversation.state] ?? humanizeEvent(conversation.state),
        words: statusWordsOf(status, pendingDialog, conversation.final, agentFailedIn(traces.at(-1)), labels),
      },
      componentsReady: !showsComponents || components !== undefined,
      presentationReady: ready,
      componentAnswers,
      pendingComponent: pending !== undefined && clicks.has(pending.key) ? undefined : pending,
      approvals: waiting === undefined ? noApprovals : waiting.shownWith(messages),
      versions: shownVersions,
      failure: failure !== undefined && failure.key === dismissed ? undefined : failure,
      labels,
    }
    cached = { snapshot, state, revision }
    return snapshot
  }

  const refreshApprovals = async (): Promise<void> => {
    if (options.approvals === undefined) return
    await rules.load()
    await approvalsNow()?.refresh()
  }
  const decide = async (): Promise<WaitingApprovals> => {
    const present = await rules.load()
    const store = approvalsNow()
    if (store === undefined) throw present.noApprovalSource()
    return store
  }

  let settledStatus: StreamStatus | undefined
  const wire = (): (() => void) => {
    const offBinding = binding.subscribe(() => {
      // read the waiting records again once a turn settles (a route or a tool may have proposed something)
      const status = binding.getState().chat.status
      if (settledStatus === 'streaming' && status !== 'streaming') void refreshApprovals().catch(() => undefined)
      settledStatus = status
      notify()
    })
    let offApprovals: (() => void) | undefined
    let wired = true
    const loaded = 'presentationOf' in rules.current()
    // the presentation rules in hand (at once, or once this page loaded them): the approvals' store can be followed
    void rules.load().then(async () => {
      if (!wired) return
      offApprovals = approvalsNow()?.subscribe(changed)
      if (!loaded) changed()
      await refreshApprovals()
    }).catch(() => undefined) // a failed load: nothing offered, nothing reported
    // the component rules came in (loaded by this view or another): answers and the picker can be shown
    const offRules = whenComponentRules(changed)
    settledStatus = binding.getState().chat.status
    return () => {
      wired = false
      offBinding()
      offApprovals?.()
      offRules()
    }
  }

  const listeners = wiredListeners(wire)

  const interact = async (messageId: string, part: ComponentPart, event: string, value?: unknown, label?: string): Promise<boolean> => {
    const key = clickKeyOf(messageId, part.instanceId)
    // checked and marked before anything is awaited: a second click meanwhile finds it in flight
    if (clicks.has(key)) return false
    clicks.set(key, { event, ...(value === undefined ? {} : { value }) })
    changed()
    try {
      const kit = componentRules() ?? await loadComponentRules()
      const sent = await kit.sendComponentClick({ controller, catalog: session.definition.components, clicks, key, messageId, part, event, value, label })
      changed()
      return sent
    } catch (error) {
      // not sent (the rules did not load, the chat was busy, the request failed): it may be tried again
      clicks.delete(key)
      changed()
      throw error
    }
  }

  return {
    binding,
    subscribe: listeners.subscribe,
    getSnapshot,
    send: (text) => controller.send(text),
    stop: binding.stop,
    retry: () => controller.retry(),
    regenerate: (messageId) => controller.regenerate(messageId),
    edit: (messageId, text) => controller.edit(messageId, text),
    setInput: (value) => controller.setInput(value),
    sendEvent: binding.sendEvent,
    answerDialog: binding.answerDialog,
    interact,
    approve: async (token) => (await decide()).approve(token),
    reject: async (token, reason) => (await decide()).reject(token, reason),
    refreshApprovals,
    switchVersion: (messageId, index) => controller.switchBranch(messageId, index),
    dismissFailure: () => {
      const failure = getSnapshot().failure
      if (failure === undefined) return
      dismissed = failure.key
      changed()
    },
    dispose: () => {
      listeners.clear()
      binding.release()
    },
  }
}
