import type { Message } from '../contract/message.js'
import { fingerprint, readDecisionRecord, type DecisionRecord } from '../conversation/decision-record.js'
import { inputKeyOf, reapply, type Decision } from '../conversation/decisions.js'
import type { JsonObject } from '../conversation/json.js'
import type { Machine, MachineState } from '../conversation/machine.js'
import { uiEventOf } from '../conversation/ui-events.js'
import type { DevtoolsAdapterCall, DevtoolsMessage, DevtoolsSignature, DevtoolsTimings, DevtoolsTurn, DevtoolsTurnKind } from './devtools-api.js'

/**
 * A stored history read as turns: one per user message, with the answers that follow it, the
 * decision record they carry, and the state before and after as a session resuming the history
 * would reach it (its timeline adopts a record when the user text still has the record's
 * fingerprint and the machine still takes the record from the state before; otherwise the turn
 * changes nothing). Pure and linear in the history; nothing runs a route or the agent.
 */

export interface WalkedConversation {
  readonly messages: DevtoolsMessage[]
  readonly turns: DevtoolsTurn[]
  /** The initial state, then each state a turn moved to. */
  readonly path: string[]
  /** The state after the last turn (null: no machine, and no record to read it from). */
  readonly state: string | null
  readonly context: JsonObject | null
  readonly failedTurns: number
  /** The machine's state (and context) just before each turn, by turn index (empty without a machine). */
  readonly before: MachineState[]
}

/** How a record's signature is judged (the handler's record key, when it has one). */
export type SignatureJudge = (record: DecisionRecord) => DevtoolsSignature

export const signatureWithoutKey: SignatureJudge = (record) => (record.sig === undefined ? 'unsigned' : 'signed')

/** A state no real history is at: `reapply` then re-applies the record from `before` (never takes its shortcut). */
const NOWHERE: MachineState = Object.freeze({ state: '', context: Object.freeze({}) })

function adopted<Ctx extends JsonObject>(machine: Machine<Ctx>, before: MachineState<Ctx>, record: DecisionRecord, inputKey: string): MachineState<Ctx> | undefined {
  const decision: Decision<Ctx> = { record, inputKey, before: NOWHERE as MachineState<Ctx>, after: NOWHERE as MachineState<Ctx>, chunks: undefined, answerId: undefined }
  return reapply(machine, decision, before)
}

/** The record the answers to `user` carry: the first assistant answer's record naming that message. */
function recordOf(user: Message, answers: readonly Message[]): DecisionRecord | undefined {
  for (const answer of answers) {
    const found = answer.role === 'assistant' ? readDecisionRecord(answer) : undefined
    if (found && found.messageId === user.id) return found
  }
  return undefined
}

/** A record whose fingerprint the user's text no longer has (the message was edited after it). */
const isStale = (record: DecisionRecord | undefined, inputKey: string): boolean => record !== undefined && record.input !== fingerprint(inputKey)

/** The state a turn leaves the machine in: the record adopted from `before`, or `before` when it is stale or not taken. */
function stateAfter<Ctx extends JsonObject>(machine: Machine<Ctx>, before: MachineState<Ctx>, record: DecisionRecord | undefined, stale: boolean, inputKey: string): MachineState<Ctx> {
  return (record && !stale ? adopted(machine, before, record, inputKey) : undefined) ?? before
}

/**
 * The machine's state and context just before the user message `messageId`, and that message:
 * what `walkConversation(machine, messages).before[turn]` holds for its turn, by the same record
 * lookup and adoption, folded only up to the message and building no view (an explanation in a
 * long conversation). Undefined when `messageId` is not a user message of `messages`.
 */
export function stateBeforeMessage<Ctx extends JsonObject>(machine: Machine<Ctx>, messages: readonly Message[], messageId: string): { before: MachineState<Ctx>; message: Message } | undefined {
  let at = machine.initial
  let i = messages.findIndex((message) => message.role === 'user')
  if (i === -1) return undefined
  while (i < messages.length) {
    const user = messages[i++] as Message
    if (user.id === messageId) return { before: at, message: user }
    const start = i
    while (i < messages.length && messages[i]?.role !== 'user') i++
    const record = recordOf(user, messages.slice(start, i))
    const inputKey = inputKeyOf(user)
    at = stateAfter(machine, at, record, isStale(record, inputKey), inputKey)
  }
  return undefined
}

const FORM_REASONS: ReadonlySet<string> = new Set(['slot-filled', 'form-complete', 'form-exhausted'])

/** The id of the answer a stored replay replays (server/replay-answer.ts marks it), if `answer` is one. */
function replayOf(answer: Message | undefined): string | undefined {
  const of = (answer?.metadata as { replayOf?: unknown } | undefined)?.replayOf
  return typeof of === 'string' ? of : undefined
}

/**
 * Why the definition's fallback gave a record-less answer (chatrail/server stores the trace's error
 * class then, `metadata.trace`): `missing-adapter` (the definition has no agent), `route-timeout`
 * (a route ran past `routeTimeoutMs`), or `agent-failed:<error class>`. Undefined: the agent's answer.
 */
function fallbackOf(answer: Message | undefined): string | undefined {
  const trace = (answer?.metadata as { trace?: { kind?: unknown; errorClass?: unknown } } | undefined)?.trace
  if (trace?.kind !== 'fallback') return undefined
  const errorClass = typeof trace.errorClass === 'string' ? trace.errorClass : 'Error'
  if (errorClass === 'MissingAdapter') return 'missing-adapter'
  return errorClass === 'RouteTimeout' ? 'route-timeout' : `agent-failed:${errorClass}`
}

function kindOf(answer: Message | undefined, record: DecisionRecord | undefined): DevtoolsTurnKind {
  if (!answer) return 'pending'
  if (answer.status === 'error' || errorCodeOf(answer) !== undefined) return 'failed'
  if (!record) return fallbackOf(answer) === undefined ? 'agentic' : 'fallback'
  if (replayOf(answer) !== undefined) return 'replayed'
  if (record.outcome === 'refused') return 'refused'
  if (record.outcome === 'unavailable') return 'unavailable'
  if (record.reason !== undefined && FORM_REASONS.has(record.reason)) return 'form'
  return record.kind
}

const TIMING_KEYS = ['routeMs', 'adapterFirstChunkMs', 'adapterMs', 'storeMs', 'storeBeforeWriteMs'] as const

/** The phases chatrail/server stores with an answer (`metadata.timings`), each a finite, non-negative number or left out. */
function storedTimingsOf(answer: Message | undefined): Pick<DevtoolsTimings, (typeof TIMING_KEYS)[number]> {
  const stored = (answer?.metadata as { timings?: unknown } | undefined)?.timings
  if (typeof stored !== 'object' || stored === null) return {}
  const timings: { -readonly [K in (typeof TIMING_KEYS)[number]]?: number } = {}
  for (const key of TIMING_KEYS) {
    const value = (stored as Record<string, unknown>)[key]
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) timings[key] = value
  }
  return timings
}

function errorCodeOf(message: Message): string | undefined {
  const error = (message.metadata as { error?: { code?: unknown } } | undefined)?.error
  return typeof error?.code === 'string' ? error.code : undefined
}

function adapterCallsOf(answers: readonly Message[], kind: DevtoolsTurnKind): DevtoolsAdapterCall[] {
  const calls: DevtoolsAdapterCall[] = []
  for (const answer of answers) {
    if (answer.role !== 'assistant') continue
    const fallback = fallbackOf(answer)
    if (fallback !== undefined) {
      // the fallback answered: the agent was called only when it failed
      if (fallback.startsWith('agent-failed:')) calls.push({ type: 'model', messageId: answer.id, status: 'error', errorCode: fallback.slice('agent-failed:'.length) })
    } else if (kind === 'agentic' || kind === 'failed') {
      const errorCode = errorCodeOf(answer)
      calls.push({ type: 'model', messageId: answer.id, status: answer.status === 'error' || errorCode !== undefined ? 'error' : 'complete', ...(errorCode === undefined ? {} : { errorCode }) })
    }
    const tools = (answer.metadata as { tools?: unknown } | undefined)?.tools
    if (Array.isArray(tools)) {
      for (const tool of tools as { toolCallId?: unknown; toolName?: unknown; state?: unknown }[]) {
        if (typeof tool?.toolCallId === 'string' && typeof tool.toolName === 'string') calls.push({ type: 'tool', toolCallId: tool.toolCallId, name: tool.toolName, status: typeof tool.state === 'string' ? tool.state : 'unknown' })
      }
    } else for (const call of answer.toolCalls ?? []) calls.push({ type: 'tool', toolCallId: call.id, name: call.name, status: call.status })
  }
  return calls
}

const iso = (date: Date): string => date.toISOString()

/**
 * Walks `messages` through `machine` (undefined: a definition the handler does not have, so states
 * are the records' own). Pure.
 */
export function walkConversation<Ctx extends JsonObject>(machine: Machine<Ctx> | undefined, messages: readonly Message[], judge: SignatureJudge = signatureWithoutKey): WalkedConversation {
  const shown: DevtoolsMessage[] = []
  const turns: DevtoolsTurn[] = []
  let at: MachineState<Ctx> | undefined = machine?.initial
  let recordedState: string | null = null
  const path: string[] = at ? [at.state] : []
  let failedTurns = 0
  const statesBefore: MachineState<Ctx>[] = []
  let i = 0
  for (; i < messages.length && messages[i]?.role !== 'user'; i++) shown.push(messageView(messages[i] as Message, undefined))
  while (i < messages.length) {
    const user = messages[i++] as Message
    const index = turns.length
    shown.push(messageView(user, index))
    const answers: Message[] = []
    for (; i < messages.length && messages[i]?.role !== 'user'; i++) {
      answers.push(messages[i] as Message)
      shown.push(messageView(messages[i] as Message, index))
    }
    const record = recordOf(user, answers)
    const inputKey = inputKeyOf(user)
    const recordStale = isStale(record, inputKey)
    let fromState: string
    let toState: string
    if (machine && at) {
      const before: MachineState<Ctx> = at
      statesBefore.push(before)
      fromState = before.state
      at = stateAfter(machine, before, record, recordStale, inputKey)
      toState = at.state
    } else {
      fromState = record?.fromState ?? recordedState ?? ''
      toState = record?.toState ?? fromState
      recordedState = toState
    }
    if (path.length === 0 && fromState !== '') path.push(fromState)
    if (toState !== '' && toState !== path.at(-1)) path.push(toState)
    const answer = answers.find((message) => message.role === 'assistant') ?? answers[0]
    const kind = kindOf(answer, record)
    if (kind === 'failed') failedTurns += 1
    const errorCode = answer && errorCodeOf(answer)
    const reason = record?.reason ?? (record ? undefined : fallbackOf(answer))
    const ended = answers.at(-1)?.createdAt
    turns.push({
      index,
      userMessageId: user.id,
      answerIds: answers.map((message) => message.id),
      kind,
      routeId: record?.routeId ?? null,
      event: record?.event ?? null,
      restart: record?.restart === true,
      fromState,
      toState,
      ...(reason === undefined ? {} : { reason }),
      ...(errorCode === undefined ? {} : { errorCode }),
      record: record ?? null,
      signature: record ? judge(record) : 'unsigned',
      recordStale,
      ...(kind === 'replayed' ? { replayOf: replayOf(answer) as string } : {}),
      timings: { ...(ended === undefined ? {} : { turnMs: Math.max(0, ended.getTime() - user.createdAt.getTime()) }), ...storedTimingsOf(answer) },
      adapterCalls: adapterCallsOf(answers, kind),
      startedAt: iso(user.createdAt),
      ...(ended === undefined ? {} : { endedAt: iso(ended) }),
    })
  }
  return { messages: shown, turns, path, state: at?.state ?? recordedState, context: at ? (at.context as JsonObject) : null, failedTurns, before: statesBefore as MachineState[] }
}

function messageView(message: Message, turn: number | undefined): DevtoolsMessage {
  const uiEvent = uiEventOf(message)
  return {
    id: message.id,
    role: message.role,
    text: message.content,
    status: message.status,
    createdAt: iso(message.createdAt),
    ...(uiEvent === undefined ? {} : { uiEvent }),
    ...(turn === undefined ? {} : { turn }),
  }
}
