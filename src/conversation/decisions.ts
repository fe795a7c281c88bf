import { historyArray, type HistoryView } from '../contract/history-view.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import { fingerprint, patchOf, readDecisionRecord, type DecisionRecord } from './decision-record.js'
import type { JsonObject } from './json.js'
import { advance, assignContext, type Machine, type MachineState } from './machine.js'
import type { RouteIndex } from './route-index.js'
import type { Route } from './routes.js'
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
  /** Set when `record` is exactly the plain record this route firing its event makes: the timeline then keeps the route, not the record. */
  readonly route?: Route<Ctx>
}

interface Segment {
  answerIds: string[]
  /** Decision records found on those answers (allocated only when there is one), with the answer carrying each. */
  records: { record: DecisionRecord; answer: Message }[] | undefined
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
  /**
   * Adopts `messages` as the history; returns whether `current()` changed. `messages` is read from
   * the end, by index, only as far as it changed (a request's history view costs no copy).
   */
  reconcile: (messages: HistoryView, full?: boolean) => boolean
  /** The last user message of the last reconciled history. */
  lastUser: () => LastUserMessage | undefined
  /** The state before a message of the timeline. */
  before: (messageId: string) => MachineState<Ctx> | undefined
  /** The decision applied to a message (undefined when undecided). */
  applied: (messageId: string) => Decision<Ctx> | undefined
  /** The cached decision for a message with this text, applied or not. */
  cached: (messageId: string, inputKey: string) => Decision<Ctx> | undefined
  forget: (messageId: string) => void
  /** Every user message of the timeline in history order, with its applied decision (what `session.persist()` saves; off the turn path). */
  entries: () => { readonly messageId: string; readonly inputKey: string; readonly decision: Decision<Ctx> | undefined }[]
  /**
   * Commits a decision for the last user message. Refused (false) when the message is gone, its
   * text changed, it is no longer last, or the state before it moved since the turn started.
   */
  commit: (decision: Decision<Ctx>) => boolean
}

const NO_MESSAGES: readonly Message[] = Object.freeze([])

/** Scratch columns of a reconciliation's unanchored messages (see `scratch` in `createTimeline`). */
interface Fresh {
  readonly messages: (Message | undefined)[]
  readonly keys: string[]
  readonly segments: (Segment | undefined)[]
  readonly ats: number[]
  count: number
}

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
  const after = advance(machine, before, record.event, patch)
  return 'type' in after || after.state !== record.toState ? undefined : after
}

/** The state after a decision applied on top of `before` (its own `after` when `before` is its own). */
export function reapply<Ctx extends JsonObject>(machine: Machine<Ctx>, decision: Decision<Ctx>, before: MachineState<Ctx>): MachineState<Ctx> | undefined {
  return decision.before === before ? decision.after : replayRecord(machine, before, decision.record)
}

/**
 * `trusted` decides whether a record found in history may be adopted (a session with a `recordKey`
 * adopts only records it signed or verified; without one, every well-formed record); a turn whose
 * record is not trusted is re-decided from its text through `rederive`, when given. `turnPrefix`:
 * turn ids are `<turnPrefix><n>` (the session's default), so a compact decision keeps `n` only.
 *
 * Memory (issue 20): one slot per user message in eight parallel arrays (message id, input key,
 * state after, decision, chunks, answer id, turn, position), no object per entry, no map keyed by message id. The
 * common decision (`Decision.route`) is its route; any other is kept as its object.
 */
export function createTimeline<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  routes: RouteIndex<Ctx>,
  start: MachineState<Ctx>,
  trusted?: (record: DecisionRecord) => boolean,
  rederive?: Rederive<Ctx>,
  turnPrefix?: string,
): Timeline<Ctx> {
  // Columns, one slot per user message of the timeline, in history order.
  const ids: string[] = []
  const keys: string[] = []
  const afters: MachineState<Ctx>[] = []
  /** The applied decision: its route (compact), the decision object, or undefined. */
  const slots: (Route<Ctx> | Decision<Ctx> | undefined)[] = []
  /** A compact decision's chunks, answer id and turn (a number when the id is `turnPrefix` + n). */
  const chunkLists: (readonly StreamChunk[] | undefined)[] = []
  const answers: (string | undefined)[] = []
  const turns: (string | number | undefined)[] = []
  /** Where each message sat in its history, counted from the first user message (finds anchors without a map). */
  const ats: number[] = []
  const columns: unknown[][] = [ids, keys, afters, slots, chunkLists, answers, turns, ats]
  /** Cached decisions that are not applied (their answer left history, or they no longer apply): what retry and regenerate replay. */
  const stale = new Map<string, Decision<Ctx>>()
  // Most sessions never hold a stale decision: skip the lookups then (each hashes a new message id).
  const staleOf = (messageId: string): Decision<Ctx> | undefined => (stale.size === 0 ? undefined : stale.get(messageId))
  const unstale = (messageId: string): void => void (stale.size !== 0 && stale.delete(messageId))
  let last: LastUserMessage | undefined
  // The history being reconciled: a re-derived turn's route callbacks see what came before its
  // message (sliced only then, off the common path).
  let reconciling: HistoryView = NO_MESSAGES

  // How many slots are in use: the columns keep their capacity when a history is cut back and
  // grows again (a fresh history per turn would otherwise shrink and regrow eight arrays per turn).
  let count = 0
  const stateAt = (ord: number): MachineState<Ctx> => (ord < 0 ? start : (afters[ord] ?? start))
  const current = (): MachineState<Ctx> => stateAt(count - 1)
  /** The slot of a message, searched from the end (every caller asks for the last user message). */
  const ordOf = (messageId: string): number | undefined => {
    for (let k = count - 1; k >= 0; k--) if (ids[k] === messageId) return k
    return undefined
  }

  // The last compact decision rebuilt, while its slot stands: a replay commits it back unchanged
  // (see `commit`), and the next replay of the same message reuses it.
  let rebuilt: Decision<Ctx> | undefined
  let rebuiltAt = -1

  /** The decision object of slot `k` (rebuilt when compact). */
  function decisionAt(k: number): Decision<Ctx> | undefined {
    const slot = slots[k]
    if (!slot || 'record' in slot) return slot
    if (rebuiltAt === k) return rebuilt
    const route = slot as Route<Ctx> & { event: string }
    const before = stateAt(k - 1)
    const after = afters[k] as MachineState<Ctx>
    const inputKey = keys[k] as string
    const turn = turns[k]
    // The same keys in the same order as `routeDecisionRecord` (records are signed and compared by their keys).
    const record: DecisionRecord = {
      v: 1, messageId: ids[k] as string, input: fingerprint(inputKey), kind: route.traceKind ?? 'deterministic', event: route.event,
      fromState: before.state, toState: after.state, turnId: typeof turn === 'number' ? `${turnPrefix}${turn}` : (turn as string), routeId: route.id,
    }
    rebuiltAt = k
    return (rebuilt = { record, inputKey, before, after, chunks: chunkLists[k], answerId: answers[k], route })
  }

  function store(k: number, messageId: string, key: string, after: MachineState<Ctx>, decision: Decision<Ctx> | undefined, at: number): void {
    if (k >= count) count = k + 1
    if (rebuiltAt === k) rebuiltAt = -1
    ids[k] = messageId
    keys[k] = key
    afters[k] = after
    ats[k] = at
    const route = decision?.route
    slots[k] = route ?? decision
    chunkLists[k] = route && decision.chunks
    answers[k] = route && decision.answerId
    // The default id `<turnPrefix><n>` is kept as n; any other id as itself.
    const turnId = route && decision.record.turnId
    if (turnId === undefined) turns[k] = undefined
    else {
      const n = Number(turnId.slice(turnPrefix?.length))
      turns[k] = `${turnPrefix}${n}` === turnId ? n : turnId
    }
  }

  /** Drops the last slot (its references cleared; the columns keep their capacity). */
  function pop(): void {
    count -= 1
    if (rebuiltAt === count) rebuiltAt = -1
    for (const column of columns) column[count] = undefined
  }

  /** The slot of the user message at `at` (counted from the first user message) with this id, if the timeline has it. */
  function anchorOf(messageId: string, at: number): number | undefined {
    const lastOrd = count - 1
    if (lastOrd < 0) return undefined
    // The common case, the last slot, first (also when a host moved it). `ats` is ascending, so
    // only one slot can sit at `at`: then the ids (a new one is a rope V8 flattens on its first
    // comparison) are compared once.
    const sameAt = ats[lastOrd] === at
    if (ids[lastOrd] === messageId) return lastOrd
    if (sameAt) return undefined
    let low = 0
    let high = lastOrd - 1
    while (low <= high) {
      const mid = (low + high) >> 1
      const value = ats[mid] as number
      if (value === at) return ids[mid] === messageId ? mid : undefined
      if (value < at) low = mid + 1
      else high = mid - 1
    }
    return undefined
  }

  function adopt(key: string, before: MachineState<Ctx>, found: { record: DecisionRecord; answer: Message }): Decision<Ctx> | undefined {
    const { record, answer } = found
    if (record.input !== fingerprint(key)) return undefined
    if (record.routeId !== undefined) {
      const position = routes.positions.get(record.routeId)
      const route = routes.routes[position ?? -1]
      if (!route || (record.event !== undefined && route.event !== record.event) || (record.restart && !route.restart)) return undefined
    }
    const after = replayRecord(machine, before, record)
    if (!after) return undefined
    // The stored answer is the cache a resumed session replays (retry, regenerate: no route callback,
    // seed 004), as a live session replays its chunks. Not with a recordKey: the record is signed,
    // the text is not. Not an answer its text cannot reproduce (tool calls, an error).
    const text = answer.content
    const chunks = trusted || record.kind === 'agentic' || answer.toolCalls?.length || answer.status === 'error' || typeof text !== 'string' ? undefined : text === '' ? [] : [{ type: 'text' as const, content: text }]
    return { record, inputKey: key, before, after, chunks, answerId: answer.id, outcome: record.outcome, reason: record.reason }
  }

  /**
   * Decides slot `k` for a message: its cached decision while it still applies, else a decision
   * record found on its answers, else (when the answer's record was not trusted) a decision
   * re-derived from its text, else undecided. `cached` is the message's cached decision.
   */
  function evaluate(k: number, message: Message, key: string, before: MachineState<Ctx>, segment: Segment, at: number, cached: Decision<Ctx> | undefined): void {
    let decision = cached && cached.inputKey === key ? cached : undefined
    let kept = decision
    let after = decision && (decision.answerId === undefined || segment.answerIds.includes(decision.answerId)) ? reapply(machine, decision, before) : undefined
    if (!after) {
      const staleAnswer = decision?.answerId
      decision = undefined
      for (const found of segment.records ?? []) {
        if (found.record.messageId !== message.id || found.answer.id === staleAnswer) continue
        decision = adopt(key, before, found)
        if (decision) break
      }
      if (!decision && rederive && segment.untrustedAnswerId !== undefined) {
        decision = rederive(message, key, before, segment.untrustedAnswerId, () => historyArray(reconciling).slice(0, at))
      }
      if (decision) kept = decision
      after = decision?.after ?? before
    }
    if (decision === undefined && kept !== undefined) stale.set(message.id, kept)
    else unstale(message.id)
    store(k, message.id, key, after, decision, at - firstUser)
  }

  // Where the first user message sits in the history being reconciled (`ats` count from it).
  let firstUser = 0

  /**
   * The messages a reconciliation did not anchor (newest first), in scratch columns reused from one
   * reconciliation to the next (issue 20: a new list, its growth and an object per message were a
   * sixth of what a fallthrough turn allocated). Cleared after use, so they hold no history; a
   * reconciliation nested in one (a re-derived turn's route syncing its session) gets its own.
   */
  function scratch(): Fresh {
    return { messages: [], keys: [], segments: [], ats: [], count: 0 }
  }
  const spare = scratch()
  let spareInUse = false

  function reconcile(messages: HistoryView, full = false): boolean {
    reconciling = messages
    const previous = current()
    const length = messages.length
    firstUser = -1
    for (let i = 0; i < length; i++) {
      if (messages.at(i)?.role === 'user') {
        firstUser = i
        break
      }
    }
    const fresh = spareInUse ? scratch() : spare
    if (fresh === spare) spareInUse = true
    try {
      return reconcileInto(messages, full, previous, length, fresh)
    } finally {
      for (let j = 0; j < fresh.count; j++) {
        fresh.messages[j] = undefined
        fresh.keys[j] = ''
        fresh.segments[j] = undefined
      }
      fresh.count = 0
      if (fresh === spare) spareInUse = false
      reconciling = NO_MESSAGES // hold no history between reconciliations
    }
  }

  function reconcileInto(messages: HistoryView, full: boolean, previous: MachineState<Ctx>, length: number, fresh: Fresh): boolean {
    // Segments (the answers between two user messages) are allocated only when there are answers.
    let segment: Segment = EMPTY_SEGMENT
    let anchor = -1
    let anchorSegment: Segment | undefined
    let anchorMessage: Message | undefined
    let anchorAt = 0
    let continuation = false
    let answerId: string | undefined
    const tail = messages.at(length - 1)
    let lastMessage: Message | undefined
    for (let i = length - 1; i >= 0; i--) {
      const message = messages.at(i)
      if (message === undefined) continue
      const role = message.role
      if (role !== 'user') {
        if (lastMessage === undefined && role === 'tool') continuation = true
        if (role === 'assistant') {
          if (segment === EMPTY_SEGMENT) segment = { answerIds: [], records: undefined }
          segment.answerIds.push(message.id)
          const record = readDecisionRecord(message)
          if (record && (trusted === undefined || trusted(record))) (segment.records ??= []).push({ record, answer: message })
          else if (record) segment.untrustedAnswerId ??= message.id
        }
        continue
      }
      const key = inputKeyOf(message)
      if (lastMessage === undefined) {
        lastMessage = message
        answerId = tail !== undefined && tail !== message && tail.role === 'assistant' ? tail.id : undefined
      }
      const ord = full ? undefined : anchorOf(message.id, i - firstUser)
      if (ord !== undefined && keys[ord] === key) {
        anchor = ord
        anchorSegment = segment
        anchorMessage = message
        anchorAt = i
        break
      }
      const f = fresh.count++
      fresh.messages[f] = message
      fresh.keys[f] = key
      fresh.segments[f] = segment
      fresh.ats[f] = i
      segment = EMPTY_SEGMENT
    }
    last = lastMessage && { message: lastMessage, continuation, answerId }

    // Decisions of messages that left history are dropped; a message that is still there with
    // the same text (a `full` re-walk, a reorder) keeps its decision for the re-evaluation below.
    const kept = count - 1 > anchor && fresh.count > 8 ? new Map(fresh.keys.slice(0, fresh.count).map((key, f) => [(fresh.messages[f] as Message).id, key])) : undefined
    while (count - 1 > anchor) {
      const k = count - 1
      const removedId = ids[k] as string
      const removedKey = keys[k]
      let key: string | undefined
      if (kept) key = kept.get(removedId)
      else for (let f = 0; f < fresh.count; f++) if (fresh.messages[f]?.id === removedId) key = fresh.keys[f]
      if (key !== removedKey) unstale(removedId)
      else if (slots[k] !== undefined) stale.set(removedId, decisionAt(k) as Decision<Ctx>)
      pop()
    }
    if (anchor >= 0 && anchorSegment && anchorMessage) {
      ats[anchor] = anchorAt - firstUser // where it sits now (a host may have moved it): `ats` stays ascending
      const slot = slots[anchor]
      const answer = slot && 'record' in slot ? slot.answerId : answers[anchor]
      // Still applied (same text, same state before, its answer still in history): nothing to do.
      if (slot === undefined || (answer !== undefined && !anchorSegment.answerIds.includes(answer))) {
        const cached = slot === undefined ? staleOf(anchorMessage.id) : decisionAt(anchor)
        evaluate(anchor, anchorMessage, keys[anchor] as string, stateAt(anchor - 1), anchorSegment, anchorAt, cached)
      }
    }
    for (let f = fresh.count - 1; f >= 0; f--) {
      const message = fresh.messages[f] as Message
      const k = count
      evaluate(k, message, fresh.keys[f] as string, stateAt(k - 1), fresh.segments[f] as Segment, fresh.ats[f] as number, staleOf(message.id))
    }
    return current() !== previous
  }

  return {
    current,
    reconcile,
    lastUser: () => last,
    before(messageId) {
      const k = ordOf(messageId)
      return k === undefined ? undefined : stateAt(k - 1)
    },
    applied(messageId) {
      const k = ordOf(messageId)
      return k === undefined ? undefined : decisionAt(k)
    },
    cached(messageId, inputKey) {
      const k = ordOf(messageId)
      const decision = (k !== undefined && slots[k] !== undefined ? decisionAt(k) : undefined) ?? staleOf(messageId)
      return decision?.inputKey === inputKey ? decision : undefined
    },
    forget(messageId) {
      stale.delete(messageId)
    },
    entries: () => ids.slice(0, count).map((messageId, k) => ({ messageId, inputKey: keys[k] as string, decision: decisionAt(k) })),
    commit(decision) {
      const messageId = decision.record.messageId
      const k = count - 1
      if (k < 0 || ids[k] !== messageId || keys[k] !== decision.inputKey || stateAt(k - 1) !== decision.before) return false
      stale.delete(messageId)
      if (rebuiltAt !== k || rebuilt !== decision) store(k, messageId, decision.inputKey, decision.after, decision, ats[k] as number)
      return true
    },
  }
}
