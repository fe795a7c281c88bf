import type {
  ActionConfirmation,
  ActionConfirmationStatus,
  ConfirmableAction,
  ConfirmationEvent,
  ConfirmationOutcome,
} from '../contract/action-confirmation.js'

/**
 * The confirmation record's one reducer: `(record, event, now) → record`. Pure and total: an event
 * the record's status does not take returns the very same record (callers compare identity to
 * know whether anything changed), every change returns a new deep-frozen record with
 * `revision + 1`. The statuses (contract/action-confirmation.ts):
 *
 * ```
 * pending ──approve──▶ approving ──execute──▶ executing ──executed──▶ approved
 *    │  │                 │  └──release──▶ pending
 *    │  │                 └──deny──▶ rejecting ──withdrawn──▶ rejected
 *    │  └──reject──▶ rejecting
 *    └──expire / approve or reject after expiresAt──▶ expiring ──withdrawn──▶ expired
 * approving | executing | rejecting | expiring ──failed──▶ same status, no claim
 * approving | executing | rejecting | expiring, no claim or claim past `until` ──reconcile──▶ same status, new claim
 * ```
 *
 * Only the claim's holder moves a processing status on (`claimId`); a reconcile replaces the claim,
 * so a process that was presumed dead and wakes up can no longer advance the record (and the
 * store's compare-and-swap on `revision` refuses its write in any case).
 */

/** The longest `reason` (and outcome error) a record keeps. */
export const MAX_REASON_CHARS = 512
/** The longest outcome `result` a record keeps (a longer one is cut). */
export const MAX_RESULT_CHARS = 16 * 1024
/** The largest action input, as JSON text (UTF-16 units), a record accepts. */
export const MAX_INPUT_JSON_CHARS = 16 * 1024

/** Statuses whose holder may die mid-way: `reconcile` takes them over once their claim ran out. */
export const PROCESSING_STATUSES: ReadonlySet<ActionConfirmationStatus> = new Set(['approving', 'executing', 'rejecting', 'expiring'])
export const FINAL_STATUSES: ReadonlySet<ActionConfirmationStatus> = new Set(['approved', 'rejected', 'expired'])

const EXPIRED_REASON = 'confirmation expired'

const bounded = (text: string): string => (text.length > MAX_REASON_CHARS ? text.slice(0, MAX_REASON_CHARS) : text)

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/** Why `value` is not plain JSON data (a path and a word), or undefined when it is. */
function notJson(value: unknown, path: string, depth: number): string | undefined {
  if (depth > 64) return `${path} is nested too deeply`
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is not a finite number`
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = notJson(value[i], `${path}[${i}]`, depth + 1)
      if (why) return why
    }
    return undefined
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown
    if (proto !== Object.prototype && proto !== null) return `${path} is not a plain object`
    for (const [key, item] of Object.entries(value)) {
      const why = notJson(item, `${path}.${key}`, depth + 1)
      if (why) return why
    }
    return undefined
  }
  return `${path} is a ${typeof value}`
}

/**
 * A deep-frozen structured clone of an action's input, so a caller mutating its object after
 * proposing changes nothing. Throws `TypeError` for input that is not a plain JSON object (it is
 * persisted as JSON) or is larger than `MAX_INPUT_JSON_CHARS`.
 */
export function freezeActionInput(input: unknown): Readonly<Record<string, unknown>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new TypeError('The action input must be a plain JSON object.')
  const why = notJson(input, 'input', 0)
  if (why) throw new TypeError(`The action input must be plain JSON: ${why}.`)
  const clone = structuredClone(input) as Record<string, unknown>
  if (JSON.stringify(clone).length > MAX_INPUT_JSON_CHARS) throw new TypeError(`The action input is larger than ${MAX_INPUT_JSON_CHARS} characters of JSON.`)
  return deepFreeze(clone)
}

export interface NewConfirmation {
  readonly token: string
  readonly sessionId: string
  readonly principal?: string
  readonly action: ConfirmableAction
  readonly toolCallId: string
  readonly idempotencyKey: string
  readonly ttlMs: number
}

/** A `pending` record at `now` (revision 1; the input cloned and frozen). Pure apart from the clone. */
export function createConfirmationRecord(input: NewConfirmation, now: number): ActionConfirmation {
  return deepFreeze({
    token: input.token,
    sessionId: input.sessionId,
    ...(input.principal === undefined ? {} : { principal: input.principal }),
    action: { name: input.action.name, input: freezeActionInput(input.action.input) },
    toolCallId: input.toolCallId,
    createdAt: now,
    expiresAt: now + input.ttlMs,
    status: 'pending' as const,
    idempotencyKey: input.idempotencyKey,
    attempts: 0,
    revision: 1,
  })
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** The next record: `record` with `changes`, fields in `drop` removed, revision + 1, frozen. */
function next(record: ActionConfirmation, changes: Partial<ActionConfirmation>, drop: readonly (keyof ActionConfirmation)[] = []): ActionConfirmation {
  const result: Mutable<ActionConfirmation> = { ...record, ...changes, revision: record.revision + 1 }
  for (const key of drop) delete result[key]
  return deepFreeze(result)
}

const holds = (record: ActionConfirmation, claimId: string): boolean => record.claim?.id === claimId

/** The outcome as a record keeps it: the known fields only, each bounded. */
const outcomeOf = (outcome: ConfirmationOutcome): ConfirmationOutcome => ({
  status: outcome.status,
  ...(outcome.error === undefined ? {} : { error: bounded(outcome.error) }),
  ...(typeof outcome.result === 'string' ? { result: outcome.result.slice(0, MAX_RESULT_CHARS) } : {}),
})

/**
 * Applies `event` to `record` at `now` (milliseconds). Pure: same arguments, same result; an event
 * that does not apply returns `record` itself.
 */
export function reduceConfirmation(record: ActionConfirmation, event: ConfirmationEvent, now: number): ActionConfirmation {
  const expired = now >= record.expiresAt
  switch (event.type) {
    case 'approve':
    case 'reject':
    case 'expire':
      if (record.status !== 'pending') return record
      if (expired) return next(record, { status: 'expiring', claim: event.claim, decidedAt: now, decidedBy: 'expiry', reason: EXPIRED_REASON })
      if (event.type === 'expire') return record
      if (event.type === 'approve') return next(record, { status: 'approving', claim: event.claim, decidedAt: now, decidedBy: event.by })
      return next(record, { status: 'rejecting', claim: event.claim, decidedAt: now, decidedBy: event.by, ...(event.reason === undefined ? {} : { reason: bounded(event.reason) }) })
    case 'execute':
      return record.status === 'approving' && holds(record, event.claimId) ? next(record, { status: 'executing' }) : record
    case 'executed':
      if (record.status !== 'executing' || !holds(record, event.claimId)) return record
      return next(record, { status: 'approved', outcome: outcomeOf(event.outcome) }, ['claim'])
    case 'deny':
      if (record.status !== 'approving' || !holds(record, event.claimId)) return record
      return next(record, { status: 'rejecting', decidedAt: now, decidedBy: event.by, reason: bounded(event.reason) })
    case 'withdrawn':
      if (!holds(record, event.claimId)) return record
      if (record.status === 'rejecting') return next(record, { status: 'rejected' }, ['claim'])
      if (record.status === 'expiring') return next(record, { status: 'expired' }, ['claim'])
      return record
    case 'release':
      if (record.status !== 'approving' || !holds(record, event.claimId)) return record
      return next(record, { status: 'pending' }, ['claim', 'decidedAt', 'decidedBy'])
    case 'failed':
      // the holder's upstream call failed: nothing is decided anew, the claim is given up for a retry
      if (!PROCESSING_STATUSES.has(record.status) || !holds(record, event.claimId)) return record
      return next(record, {}, ['claim'])
    case 'reconcile':
      if (!PROCESSING_STATUSES.has(record.status) || (record.claim !== undefined && record.claim.until > now)) return record
      return next(record, { claim: event.claim, attempts: record.attempts + 1 })
  }
}
