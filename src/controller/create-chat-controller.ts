import type { ChatConfig, EditOptions } from '../contract/chat.js'
import type { ChatMemory } from '../contract/memory.js'
import type { Message } from '../contract/message.js'
import type { ToolDefinition } from '../contract/tool.js'
import { buildMessage } from './build-message.js'
import { initialSnapshot } from './chat-reducer.js'
import type { ChatControllerOptions, ChatrailController, SendOptions } from './chatrail-controller.js'
import { flushDoneRecord, takeDoneRecord, type ControllerContext } from './controller-context.js'
import { controllerKit } from './controller-kit.js'
import { ConfigError, ErrorCodes } from './errors.js'
import { emitEvent, invokeCallback, isThenable } from './event-emitter.js'
import { planEdit, planRegenerate, planRetry } from './history-edits.js'
import type { RerunPlan } from './history-edits.js'
import { defaultClock, defaultIds } from './ids.js'
import type { BranchPosition, MessageBranches } from './message-branches.js'
import { loadedModelTurn, loadModelTurn, prefetchModelTurn, runTurnWhenLoaded } from './model-turn-loader.js'
import { createMemoryPersistence } from './memory-persistence.js'
import { activateSkills } from './skill-activation.js'
import type { SkillActivation } from './skill-activation.js'
import { createStateStore } from './state-store.js'
import { prefetchToolHandling, withToolHandling } from './tool-loader.js'
import { createToolRuntime } from './tool-runtime.js'
import { createTurnTracker } from './turn-tracker.js'

/** The reason written into tool calls that a `stop()` cut short. */
export const STOPPED_TOOL_CALL_ERROR = 'Stopped: the turn was cancelled before this tool call finished'

/**
 * Creates the chat controller: AgentsKit's `createChatController` lifecycle
 * (`/work/shared/research/agentskit-contract.md` §2) with injectable `ids` and `clock`, a `send`
 * that takes user-message metadata, and upstream's §2.13–2.15 quirks fixed: every failure ends the
 * turn in `status: 'error'` (promises resolve), `retry`/`clear`/`edit` abort the old stream, and
 * tools keep working after `clear()`. All methods are `this`-free closures.
 */
export function createChatController(config: ChatConfig, options: ChatControllerOptions = {}): ChatrailController {
  if (!config || typeof config.adapter?.createSource !== 'function') {
    throw new ConfigError({
      code: ErrorCodes.AK_ADAPTER_MISSING,
      message: 'createChatController: config.adapter must be an AdapterFactory ({ createSource(request) })',
      hint: 'Pass { adapter } — e.g. scriptedAdapter([...]) from chatrail/testing, or a provider adapter.',
    })
  }
  let current: ChatConfig = config
  const emit: ControllerContext['emit'] = (event) => emitEvent(current.observers, event)
  prefetchToolHandling(config)

  let hydrating = false
  const persistence = createMemoryPersistence((messageCount) => emit({ type: 'memory:save', messageCount }))
  const store = createStateStore(initialSnapshot(config.initialMessages ?? []), (state) => {
    if (!hydrating) persistence.save(current.memory, () => state.messages)
  })
  const tools = createToolRuntime()
  const turns = createTurnTracker()
  const keepsVersions = options.branches !== false
  // The versions edits and regenerates keep: made on the first fork, with the class that comes
  // with a turn's code (model-turn.ts); until then every message is the only version of its place.
  let branches: MessageBranches | undefined
  /** The versions, made now if a turn's code is in; undefined while it is not. */
  const versionsNow = (): MessageBranches | undefined => {
    const turnCode = loadedModelTurn()
    return (branches ??= turnCode && new turnCode.MessageBranches())
  }
  /**
   * Before a fork: the load of a turn's code, when it is not in yet (in a UI it came in when the
   * chat was shown); undefined when it is, so a fork's synchronous start stays in the caller's tick.
   * Should it fail to load, the rerun goes on without keeping a version (as with `branches: false`)
   * and its turn, loading it again, fails as data.
   */
  const versionsLoad = (): Promise<unknown> | undefined => (versionsNow() === undefined ? loadModelTurn().catch(() => undefined) : undefined)

  // Skill tools join the registry when activation settles; the turn awaiting the same promise
  // resumes after this callback (registered first), so it always sees them.
  let skillTools: ToolDefinition[] = []
  let activation: Promise<SkillActivation>
  const activate = (): void => {
    const pending = activateSkills(current.skills, current.systemPrompt)
    activation = pending
    void pending.then((result) => {
      if (activation !== pending) return
      skillTools = result.ok ? result.tools : []
      tools.rebuild(current.tools, skillTools)
    })
  }
  tools.rebuild(current.tools, skillTools)
  activate()

  const messages = (): Message[] => store.getState().messages
  const setMessages = (next: Message[]): void => {
    store.dispatch({ type: 'messages-set', messages: next })
  }
  const ctx: ControllerContext = {
    store,
    messages,
    turns,
    tools,
    config: () => current,
    ids: options.ids ?? defaultIds,
    clock: options.clock ?? defaultClock,
    emit,
    kit: controllerKit,
    skills: () => activation,
    providerResolved: new Set(),
    proposals: new Map(),
    doneRecord: undefined,
  }

  /** Hydrates once, only into an empty chat; a synchronous `load()` applies before this returns. */
  let hydrated = false
  const hydrate = (memory: ChatMemory): void => {
    hydrated = true
    const apply = (loaded: unknown): void => {
      if (!Array.isArray(loaded) || loaded.length === 0 || messages().length > 0) return
      hydrating = true
      try {
        setMessages(loaded as Message[])
      } finally {
        hydrating = false
      }
      emit({ type: 'memory:load', messageCount: loaded.length })
    }
    try {
      const loaded = memory.load()
      if (isThenable(loaded)) loaded.then(apply, () => undefined)
      else apply(loaded)
    } catch {
      // a failing load is ignored and never retried (§2.11)
    }
  }
  if (config.memory) hydrate(config.memory)

  /**
   * Starts a model call (and its tool loop) on `plan.kept` + a fresh streaming assistant, or, with
   * `appended` (`send`), on the current history + `appended` + the assistant: O(1), no array copy.
   */
  const rerun = async (plan: RerunPlan | { appended: Message; query: string }, clearInput: boolean, fork = false): Promise<void> => {
    flushDoneRecord(ctx)
    const turn = turns.begin()
    const assistant = buildMessage({ role: 'assistant', content: '', status: 'streaming' }, ctx)
    if (fork && keepsVersions && 'kept' in plan) versionsNow()?.fork(messages(), plan.kept.length, assistant.id)
    if ('appended' in plan) store.dispatch({ type: 'turn-appended', appended: [plan.appended, assistant], clearInput })
    else store.dispatch({ type: 'turn-begun', messages: [...plan.kept, assistant], clearInput })
    await runTurnWhenLoaded(ctx, turn, assistant.id, plan.query)
  }

  /** Ends the running turn without reporting: streaming messages complete, unfinished tools error. */
  const halt = (): Message[] => {
    // A turn stopped between its `done` and its settling keeps its record, merged into the stop
    // itself: no change is published before the turn is superseded (a subscriber may send).
    const pending = ctx.doneRecord
    const settled = pending && { id: pending.assistantId, metadata: takeDoneRecord(ctx, pending.assistantId) as Record<string, unknown> }
    const streaming = messages().filter((message) => message.status === 'streaming')
    turns.supersede()
    store.dispatch({ type: 'turn-stopped', reason: STOPPED_TOOL_CALL_ERROR, settled })
    return streaming
  }

  /**
   * `retry`/`regenerate`: plans against history, halts the running turn, then plans again (the
   * halt may have settled the message being replaced) and reruns. `regenerate` keeps the replaced
   * reply as a version (`fork`); `retry` asks again after a failure and keeps nothing.
   */
  const replan = async (plan: (history: Message[]) => RerunPlan | undefined, fork: boolean): Promise<void> => {
    if (!plan(messages())) return
    const loading = fork && keepsVersions ? versionsLoad() : undefined
    if (loading) {
      await loading
      // history may have changed while the versions' code loaded: plan on it as it is now
      if (!plan(messages())) return
    }
    halt()
    const replanned = plan(messages())
    if (!replanned) return
    await rerun(replanned, false, fork)
  }

  const stop = (): void => {
    const stopped = halt()
    const history = messages()
    for (const { id } of stopped) {
      const settled = history.find((message) => message.id === id)
      if (settled) invokeCallback(current.onMessage, settled)
    }
  }

  const send = async (text: string, sendOptions?: SendOptions): Promise<void> => {
    if (typeof text !== 'string' || !text.trim()) return
    if (store.getState().status === 'streaming') stop()
    const user = buildMessage({ role: 'user', content: text, metadata: sendOptions?.metadata }, ctx)
    await rerun({ appended: user, query: text }, true)
  }

  const edit = async (messageId: string, newContent: string, opts?: EditOptions): Promise<void> => {
    let first = planEdit(messages(), messageId, newContent)
    const loading = first?.kind === 'truncate' && keepsVersions ? versionsLoad() : undefined
    if (loading) {
      await loading
      // history may have changed while the versions' code loaded: plan on it as it is now
      first = planEdit(messages(), messageId, newContent)
    }
    if (!first) return
    if (first.kind === 'in-place') {
      setMessages(first.messages)
      return
    }
    // Truncating history under a running stream would orphan it: stop it first (upstream did not).
    halt()
    const plan = planEdit(messages(), messageId, newContent)
    if (plan?.kind !== 'truncate') return
    if (keepsVersions) versionsNow()?.fork(messages(), plan.kept.length - 1, messageId)
    if (opts?.regenerate === false) setMessages(plan.kept)
    else await rerun(plan, false)
  }

  const clear = async (): Promise<void> => {
    turns.supersede()
    ctx.doneRecord = undefined
    branches?.clear()
    store.dispatch({ type: 'cleared' })
    ctx.providerResolved.clear()
    await tools.disposeAll()
    await persistence.clear(current.memory)
  }

  const branchesOf = (messageId: string): BranchPosition => branches?.positionOf(messages(), messageId) ?? { index: 0, count: 1 }

  const switchBranch = (messageId: string, index: number): boolean => {
    if (!Number.isInteger(index) || index < 0) {
      throw new ConfigError({
        code: ErrorCodes.AK_CONFIG_INVALID,
        message: `switchBranch: index must be a whole number from 0, got ${String(index)}`,
        hint: 'Pass an index below branchesOf(messageId).count, e.g. switchBranch(id, branchesOf(id).index - 1).',
      })
    }
    const position = branchesOf(messageId)
    if (branches === undefined || position.count <= index || position.index === index) return false
    // A turn streaming into the version being left would go on writing into a hidden one: stop it.
    halt()
    const next = branches.switchTo(messages(), messageId, index)
    if (next === undefined) return false
    setMessages(next)
    return true
  }

  const updateConfig = (partial: Partial<ChatConfig>): void => {
    const previous = current
    current = { ...current, ...partial }
    if (current.tools !== previous.tools) tools.rebuild(current.tools, skillTools)
    if (current.tools !== previous.tools || current.adapter !== previous.adapter) prefetchToolHandling(current)
    // Re-activate only when skills or the prompt changed: hooks call updateConfig on every render.
    if (current.skills !== previous.skills || current.systemPrompt !== previous.systemPrompt) activate()
    if (!hydrated && current.memory) hydrate(current.memory)
  }

  return {
    getState: store.getState,
    // A UI subscribing shows the chat: the code of a turn loads meanwhile (model-turn-loader.ts).
    subscribe: (listener) => {
      prefetchModelTurn()
      return store.subscribe(listener)
    },
    send,
    stop,
    retry: () => replan(planRetry, false),
    edit,
    regenerate: (messageId) => replan((history) => planRegenerate(history, messageId), true),
    branchesOf,
    switchBranch,
    setInput: (value) => {
      if (value !== '') prefetchModelTurn()
      store.dispatch({ type: 'input-set', input: value })
    },
    setMessages,
    clear,
    updateConfig,
    // tool calls are handled by a module loaded on first use (tool-loader.ts)
    proposeToolCall: (proposal) => withToolHandling((tools) => tools.proposeToolCall(ctx, proposal)),
    approve: (toolCallId: string, options?: { idempotencyKey?: string }) =>
      withToolHandling((tools) => tools.settleConfirmation(ctx, toolCallId, { approve: true, ...(options?.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }) })),
    deny: (toolCallId, reason) => withToolHandling((tools) => tools.settleConfirmation(ctx, toolCallId, { approve: false, reason })),
  }
}
