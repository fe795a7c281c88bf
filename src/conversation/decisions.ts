import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import { fingerprint, patchOf, readDecisionRecord, type DecisionRecord } from './decision-record.js'
import type { JsonObject } from './json.js'
import { assignContext, step, type Machine, type MachineState } from './machine.js'
import type { RouteIndex } from './route-index.js'
import { uiEventOf } from './ui-events.js'

/**
 * Decisions and the timeline: how a session's state follows its history.
 *
 * The timeline holds one entry per user message in history order: the state before it, the state
 * after it, and the decision applied to it (if any). A decision is applied while (1) its user
 * message keeps its exact text, (2) the state it was decided from is still the state before the
 * message, and (3) its answer (the assistant message it streamed into) is still in history, so a
 * stopped retry or a regenerate in flight leaves the message undecided, exactly as a fresh
 * session reading the same history would see it. The cache keyed by user-message id outlives
 * (3), which is what lets retry and regenerate replay without a route callback or a model call.
 *
 * Reconciliation walks history backwards from the end until it meets a user message it already
 * knows with the same text: everything before it is taken as unchanged (every controller
 * operation that changes a message drops what follows it). Extending history costs O(1); an
 * edit costs O(turns after the edit). `full` re-walks everything (host-side history surgery).
 */

export interface Decision<Ctx extends JsonObject = JsonObject> {
  /** What was decided (message, kind, route, event, states, turn id, context patch). */
  readonly record: DecisionRecord
  readonly inputKey: string
  readonly before: MachineState<Ctx>
  readonly after: MachineState<Ctx>
  /** The chunks to replay before `done` (deterministic decisions only). */
  readonly chunks: readonly StreamChunk[] | undefined
  /** The assistant message this decision was streamed into; undefined when the request had none. */
  readonly answerId: string | undefined
  /** The trace outcome when not `ok` (a re-prompt, a stale UI event), and why, for the live turn and its replays. */
  readonly outcome?: 'refused' | 'unavailable'
  readonly reason?: string
}

interface Entry<Ctx extends JsonObject> {
  readonly messageId: string
  readonly inputKey: string
  readonly before: MachineState<Ctx>
  readonly after: MachineState<Ctx>
  readonly decision: Decision<Ctx> | undefined
}

interface Segment {
  answerIds: string[]
  /** Decision records found on those answers (allocated only when there is one). */
  records: { record: DecisionRecord; answerId: string }[] | undefined
  /** The answer carrying a record the session does not trust (unsigned or forged), if any. */
  untrustedAnswerId?: string
}

/**
 * Re-decides, from its text alone, a user message whose answer carries a record the session does
 * not trust: the decision a route gives it now from `before`, or undefined (no route matches, or
 * the routes are asynchronous). `history` is the history before the message.
 */
export type Rederive<Ctx extends JsonObject> = (message: Message, inputKey: string, before: MachineState<Ctx>, answerId: string, history: () => readonly Message[]) => Decision<Ctx> | undefined

export interface LastUserMessage {
  readonly message: Message
  /** A tool-loop follow-up: tool results came after the user message. */
  readonly continuation: boolean
  /** The assistant placeholder this request streams into (the request's last message), if any. */
  readonly answerId: string | undefined
}

export interface Timeline<Ctx extends JsonObject = JsonObject> {
  /** The state after the last user message. */
  current: () => MachineState<Ctx>
  /** Adopts `messages` as the history; returns whether `current()` changed. */
  reconcile: (messages: readonly Message[], full?: boolean) => boolean
  /** The last user message of the last reconciled history. */
  lastUser: () => LastUserMessage | undefined
  /** The state before a message of the timeline. */
  before: (messageId: string) => MachineState<Ctx> | undefined
  /** The decision applied to a message (undefined when undecided). */
  applied: (messageId: string) => Decision<Ctx> | undefined
  /** The cached decision for a message with this text, applied or not. */
  cached: (messageId: string, inputKey: string) => Decision<Ctx> | undefined
  forget: (messageId: string) => void
  /**
   * Commits a decision for the last user message. Refused (false) when the message is gone, its
   * text changed, it is no longer last, or the state before it moved since the turn started.
   */
  commit: (decision: Decision<Ctx>) => boolean
}

const NO_MESSAGES: readonly Message[] = Object.freeze([])

const EMPTY_SEGMENT: Segment = Object.freeze({ answerIds: [], records: undefined }) as unknown as Segment

/** The identity of a user message's input: exact text plus the UI event it carries. */
export function inputKeyOf(message: Message): string {
  const event = uiEventOf(message)
  return event === undefined ? message.content : `${message.content}\u0000${event}`
}

/**
 * The state `record` leads to when re-applied on `before` (its event and context patch), or
 * undefined when the machine no longer takes it from there to the recorded state. Pure apart from
 * transition guards.
 */
function replayRecord<Ctx extends JsonObject>(machine: Machine<Ctx>, before: MachineState<Ctx>, record: DecisionRecord): MachineState<Ctx> | undefined {
  if (record.fromState !== before.state) return undefined
  if (record.restart) return record.toState === machine.initial.state ? machine.initial : undefined
  const patch = patchOf(record) as Partial<Ctx> | undefined
  if (record.event === undefined) {
    // No transition (reply-only route, re-prompt, form slot): only the context patch.
    if (record.toState !== before.state) return undefined
    const context = assignContext(before.context, patch)
    return context === before.context ? before : context && Object.freeze({ state: before.state, context })
  }
  const [after, effects] = step(machine, before, record.event, patch)
  return effects[0]?.type === 'transition' && after.state === record.toState ? after : undefined
}

/** The state after a decision applied on top of `before` (its own `after` when `before` is its own). */
export function reapply<Ctx extends JsonObject>(machine: Machine<Ctx>, decision: Decision<Ctx>, before: MachineState<Ctx>): MachineState<Ctx> | undefined {
  return decision.before === before ? decision.after : replayRecord(machine, before, decision.record)
}

/**
 * `trusted` decides whether a record found in history may be adopted (a session with a `recordKey`
 * adopts only records it signed or verified; without one, every well-formed record); a turn whose
 * record is not trusted is re-decided from its text through `rederive`, when given.
 */
export function createTimeline<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  routes: RouteIndex<Ctx>,
  start: MachineState<Ctx>,
  trusted?: (record: DecisionRecord) => boolean,
  rederive?: Rederive<Ctx>,
): Timeline<Ctx> {
  const entries: Entry<Ctx>[] = []
  const ords = new Map<string, number>()
  const cache = new Map<string, Decision<Ctx>>()
  let last: LastUserMessage | undefined
  // The history being reconciled: a re-derived turn's route callbacks see what came before its
  // message (sliced only then, off the common path).
  let reconciling: readonly Message[] = NO_MESSAGES

  const stateAt = (ord: number): MachineState<Ctx> => (ord < 0 ? start : (entries[ord]?.after ?? start))
  const current = (): MachineState<Ctx> => stateAt(entries.length - 1)
  const entryOf = (messageId: string): Entry<Ctx> | undefined => {
    const ord = ords.get(messageId)
    return ord === undefined ? undefined : entries[ord]
  }

  function adopt(message: Pick<Message, 'id'>, key: string, before: MachineState<Ctx>, found: { record: DecisionRecord; answerId: string }): Decision<Ctx> | undefined {
    const { record, answerId } = found
    if (record.input !== fingerprint(key)) return undefined
    if (record.routeId !== undefined) {
      const position = routes.positions.get(record.routeId)
      const route = routes.routes[position ?? -1]
      if (!route || (record.event !== undefined && route.event !== record.event) || (record.restart && !route.restart)) return undefined
    }
    const after = replayRecord(machine, before, record)
    if (!after) return undefined
    const decision: Decision<Ctx> = { record, inputKey: key, before, after, chunks: undefined, answerId }
    cache.set(message.id, decision)
    return decision
  }

  /**
   * The entry for a message: its cached decision while it still applies, else a decision record
   * found on its answers, else (when the answer's record was not trusted) a decision re-derived
   * from its text, else undecided. `current` itself when nothing changed (no allocation on a quiet
   * sync).
   */
  function evaluate(message: Message, key: string, before: MachineState<Ctx>, segment: Segment, at: number, current?: Entry<Ctx>): Entry<Ctx> {
    let decision = cache.get(message.id)
    if (decision && decision.inputKey !== key) {
      cache.delete(message.id)
      decision = undefined
    }
    let after = decision && (decision.answerId === undefined || segment.answerIds.includes(decision.answerId)) ? reapply(machine, decision, before) : undefined
    if (!after) {
      const stale = decision?.answerId
      decision = undefined
      for (const found of segment.records ?? []) {
        if (found.record.messageId !== message.id || found.answerId === stale) continue
        decision = adopt(message, key, before, found)
        if (decision) break
      }
      if (!decision && rederive && segment.untrustedAnswerId !== undefined) {
        decision = rederive(message, key, before, segment.untrustedAnswerId, () => reconciling.slice(0, at))
        if (decision) cache.set(message.id, decision)
      }
      after = decision?.after ?? before
    }
    if (current && current.before === before && current.after === after && current.decision === decision) return current
    return { messageId: message.id, inputKey: key, before, after, decision }
  }

  function reconcile(messages: readonly Message[], full = false): boolean {
    reconciling = messages
    const previous = current()
    const fresh: { message: Message; key: string; segment: Segment; at: number }[] = []
    // Segments (the answers between two user messages) are allocated only when there are answers.
    let segment: Segment = EMPTY_SEGMENT
    let anchor = -1
    let anchorSegment: Segment | undefined
    let anchorMessage: Message | undefined
    let anchorAt = 0
    let continuation = false
    let answerId: string | undefined
    const tail = messages.at(-1)
    let lastMessage: Message | undefined
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]
      if (message === undefined) continue
      const role = message.role
      if (role !== 'user') {
        if (lastMessage === undefined && role === 'tool') continuation = true
        if (role === 'assistant') {
          if (segment === EMPTY_SEGMENT) segment = { answerIds: [], records: undefined }
          segment.answerIds.push(message.id)
          const record = readDecisionRecord(message)
          if (record && (trusted === undefined || trusted(record))) (segment.records ??= []).push({ record, answerId: message.id })
          else if (record) segment.untrustedAnswerId ??= message.id
        }
        continue
      }
      const key = inputKeyOf(message)
      if (lastMessage === undefined) {
        lastMessage = message
        answerId = tail !== undefined && tail !== message && tail.role === 'assistant' ? tail.id : undefined
      }
      const ord = full ? undefined : ords.get(message.id)
      if (ord !== undefined && entries[ord]?.inputKey === key) {
        anchor = ord
        anchorSegment = segment
        anchorMessage = message
        anchorAt = i
        break
      }
      fresh.push({ message, key, segment, at: i })
      segment = EMPTY_SEGMENT
    }
    last = lastMessage && { message: lastMessage, continuation, answerId }

    // Decisions of messages that left history are dropped; a message that is still there with
    // the same text (a `full` re-walk, a reorder) keeps its decision for the re-evaluation below.
    const kept = entries.length - 1 > anchor && fresh.length > 8 ? new Map(fresh.map((f) => [f.message.id, f.key])) : undefined
    while (entries.length - 1 > anchor) {
      const removed = entries.pop()
      if (!removed) continue
      ords.delete(removed.messageId)
      let key: string | undefined
      if (kept) key = kept.get(removed.messageId)
      else for (const item of fresh) if (item.message.id === removed.messageId) key = item.key
      if (key !== removed.inputKey) cache.delete(removed.messageId)
    }
    const anchored = anchor >= 0 ? entries[anchor] : undefined
    if (anchored && anchorSegment && anchorMessage) {
      entries[anchor] = evaluate(anchorMessage, anchored.inputKey, anchored.before, anchorSegment, anchorAt, anchored)
    }
    for (let i = fresh.length - 1; i >= 0; i--) {
      const item = fresh[i]
      if (!item) continue
      ords.set(item.message.id, entries.length)
      entries.push(evaluate(item.message, item.key, stateAt(entries.length - 1), item.segment, item.at))
    }
    reconciling = NO_MESSAGES // hold no history between reconciliations
    return current() !== previous
  }

  return {
    current,
    reconcile,
    lastUser: () => last,
    before: (messageId) => entryOf(messageId)?.before,
    applied: (messageId) => entryOf(messageId)?.decision,
    cached(messageId, inputKey) {
      const decision = cache.get(messageId)
      return decision?.inputKey === inputKey ? decision : undefined
    },
    forget(messageId) {
      cache.delete(messageId)
    },
    commit(decision) {
      const messageId = decision.record.messageId
      const entry = entries.at(-1)
      if (entry?.messageId !== messageId || entry.inputKey !== decision.inputKey || entry.before !== decision.before) return false
      cache.set(messageId, decision)
      // A replay of the applied decision changes nothing: keep the entry (no allocation).
      if (entry.decision !== decision || entry.after !== decision.after) entries[entries.length - 1] = { ...entry, after: decision.after, decision }
      return true
    },
  }
}
