import type {
  ActionConfirmation,
  ConfirmableAction,
  ConfirmationChange,
  ConfirmationEvent,
  ConfirmationLedger,
} from '../contract/action-confirmation.js'
import type { ToolDefinition } from '../contract/tool.js'
import { chatExecutor, toolsExecutor, type ActionExecutor, type ConfirmationChat } from './action-executor.js'
import type { ActionPolicy } from './capability-policy.js'
import type { ActionKit } from './action-kit.js'
import { createConfirmationRecord, FINAL_STATUSES, PROCESSING_STATUSES, reduceConfirmation } from './confirmation-record.js'
import { memoryConfirmationLedger } from './confirmation-ledger.js'
import { createConfirmationToken } from './confirmation-token.js'

/**
 * The confirmation coordinator (AgentsKit Chat's `createActionConfirmation`): the actor around the
 * pure reducer in confirmation-record.ts. Every change is a compare-and-swap on the record's
 * `revision` in the ledger (a store shared by instances and tabs), so of two approvers racing for
 * one token exactly one moves it out of `pending`, and only that one executes. Within a process,
 * calls for one token are single-flight (they share one attempt). A process that dies mid-way
 * leaves its claim in the record; once the claim runs out `reconcile(token)` takes over and
 * finishes the record: `approving` is checked and executed, `executing` is executed again with
 * the same `idempotencyKey` (the tool dedupes by it), `rejecting`/`expiring` are withdrawn.
 */

export interface ActionConfirmationOptions {
  /** The session (conversation) the records belong to; identifier-safe. */
  readonly sessionId: string
  /** The principal the session belongs to: approvals must come from it. Absent: not checked. */
  readonly principal?: string
  /** AgentsKit's way: a chat controller settles the `requires_confirmation` tool call. */
  readonly chat?: ConfirmationChat
  /** Or: tools with `requiresConfirmation: true`, run directly (a server). */
  readonly tools?: readonly ToolDefinition[]
  /** Or: the app's own executor. Exactly one of `chat`, `tools`, `executor`. */
  readonly executor?: ActionExecutor
  /** Where records live (a `ConversationStore` with confirmations, shared by instances). Default: this process's memory. */
  readonly ledger?: ConfirmationLedger
  /** Checked at propose and again right before execute (a revocation in between blocks). */
  readonly policy?: ActionPolicy
  /** How long a proposal waits for a decision. Default 5 minutes. */
  readonly ttlMs?: number
  /** How long a processing claim lasts before `reconcile` may take it over. Default 30 s; longer than the slowest `execute`. */
  readonly claimMs?: number
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number
  /** Tokens. Default 128 random bits (`createConfirmationToken`); a custom one must be unguessable too. */
  readonly createToken?: () => string
  /** Tool call ids, idempotency keys and claim ids. Default random UUIDs. */
  readonly createId?: () => string
  /** Every change, once, as `{ record, from, to }`; failures are ignored. */
  readonly onChange?: (change: ConfirmationChange) => void
  /** Sweep expired proposals every this many milliseconds (`dispose()` stops it). Default: only on read and `sweepExpired`. */
  readonly sweepEveryMs?: number
}

/** Who decides: the session the request came from and its principal. */
export interface ConfirmationCaller {
  readonly sessionId: string
  readonly principal?: string
}

export interface ActionConfirmationCoordinator {
  readonly sessionId: string
  /**
   * Proposes `action`: checks the policy and the executor (a controller adds the tool call), then
   * stores a `pending` record. `idempotencyKey`: the key the action already has elsewhere (a
   * server's tool approval keeps `<conversationId>:<approvalId>`); default a new random one.
   */
  propose: (action: ConfirmableAction, options?: { readonly toolCallId?: string; readonly idempotencyKey?: string }) => Promise<ActionConfirmation>
  /** Approves and executes once; a record not `pending` comes back as it is. A foreign or unknown token is `CONFIRMATION_NOT_FOUND`. */
  approve: (token: string, caller: string | ConfirmationCaller) => Promise<ActionConfirmation>
  reject: (token: string, caller: string | ConfirmationCaller, reason?: string) => Promise<ActionConfirmation>
  /** The record for `token` (an expired `pending` one is expired on the way). */
  get: (token: string) => Promise<ActionConfirmation | undefined>
  /** The last known record for a tool call (this coordinator's view; synchronous, like AgentsKit's). */
  getByToolCall: (toolCallId: string) => ActionConfirmation | undefined
  /** The records this coordinator has seen, oldest first. */
  getSnapshot: () => readonly ActionConfirmation[]
  /** The session's records from the ledger (expired ones swept). */
  list: () => Promise<ActionConfirmation[]>
  /** Expires every `pending` record past its `expiresAt` at `now`; returns the records it expired. */
  sweepExpired: (now?: number) => Promise<ActionConfirmation[]>
  /** Finishes a record left in a processing status by a process that died (once its claim ran out). */
  reconcile: (token: string) => Promise<ActionConfirmation | undefined>
  subscribe: (listener: (change: ConfirmationChange) => void) => () => void
  dispose: () => void
}

const notFound = (kit: ActionKit): Error =>
  kit.error({ code: 'CONFIRMATION_NOT_FOUND', message: 'There is no confirmation with this token in this session.', hint: 'Approve or reject the token the proposal returned, from the session it was proposed in.' })

const describe = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown))

function executorOf(kit: ActionKit, options: ActionConfirmationOptions): ActionExecutor {
  const given = [options.chat, options.tools, options.executor].filter((value) => value !== undefined).length
  if (given !== 1) {
    throw kit.configError('invalid_confirmation', ['executor'], 'Pass exactly one of chat, tools or executor to run confirmed actions.', 'chat: a controller (AgentsKit proposeToolCall/approve/deny); tools: tools with requiresConfirmation run directly; executor: your own.')
  }
  if (options.chat) return chatExecutor(options.chat)
  if (options.tools) return toolsExecutor(options.tools, kit)
  return options.executor as ActionExecutor
}

function positive(kit: ActionKit, value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0) throw kit.configError('invalid_confirmation', [name], `${name} must be a positive whole number of milliseconds (got ${String(value)}).`, `Omit it for the default, or pass e.g. 60000.`)
  return value
}

/** `createActionConfirmation` over `kit` (see action-kit.ts); the public one is in actions.ts. */
export const actionConfirmationWith = (kit: ActionKit) => (options: ActionConfirmationOptions): ActionConfirmationCoordinator => {
  const { sessionId, principal, policy } = options
  const { isIdentifier } = kit
  if (!isIdentifier(sessionId)) throw kit.configError('invalid_identifier', ['sessionId'], `Session id ${JSON.stringify(sessionId)} is not identifier-safe.`, 'Use the session’s own id (session.sessionId).')
  const executor = executorOf(kit, options)
  const ledger = options.ledger ?? memoryConfirmationLedger()
  const ttlMs = positive(kit, options.ttlMs, 300_000, 'ttlMs')
  const claimMs = positive(kit, options.claimMs, 30_000, 'claimMs')
  const now = options.now ?? Date.now
  const createToken = options.createToken ?? createConfirmationToken
  const createId = options.createId ?? kit.randomUUID
  const known = new Map<string, ActionConfirmation>()
  const byToolCall = new Map<string, string>()
  const listeners = new Set<(change: ConfirmationChange) => void>()
  const inFlight = new Map<string, Promise<ActionConfirmation | undefined>>()

  const notify = (change: ConfirmationChange): void => {
    for (const listener of [options.onChange, ...listeners]) {
      try {
        listener?.(change)
      } catch {
        // an observer's failure never changes a decision
      }
    }
  }

  /** Remembers `record` (the newest revision wins) and notifies when its status changed. */
  const seen = (record: ActionConfirmation): ActionConfirmation => {
    const before = known.get(record.token)
    if (before && before.revision >= record.revision) return before
    known.set(record.token, record)
    byToolCall.set(record.toolCallId, record.token)
    if (before?.status !== record.status) notify({ record, from: before?.status, to: record.status })
    return record
  }

  /** One step: the event applied and compare-and-swapped; `undefined` when another writer got there first. */
  const step = async (record: ActionConfirmation, event: ConfirmationEvent): Promise<ActionConfirmation | undefined> => {
    const nextRecord = reduceConfirmation(record, event, now())
    if (nextRecord === record) return record
    if (!(await ledger.saveConfirmation(nextRecord, record.revision))) return undefined
    return seen(nextRecord)
  }

  /** The stored record, seen; `undefined` when there is none. */
  const load = async (token: string): Promise<ActionConfirmation | undefined> => {
    const record = await ledger.loadConfirmation(token)
    return record && record.sessionId === sessionId ? seen(record) : undefined
  }

  const claim = () => ({ id: createId(), until: now() + claimMs })

  /**
   * The holder's upstream call failed: it gives up its claim so a retry can take the record over at
   * once. Safe: this process has stopped its attempt. A store that refuses the write (a lost race, an
   * outage) leaves the claim to run out instead.
   */
  const giveUp = async (record: ActionConfirmation, claimId: string): Promise<void> => {
    await step(record, { type: 'failed', claimId }).catch(() => undefined)
  }

  /** Once per token at a time in this process: a second caller shares the first one's attempt. */
  const singleFlight = (token: string, work: () => Promise<ActionConfirmation | undefined>): Promise<ActionConfirmation | undefined> => {
    const running = inFlight.get(token)
    if (running) return running
    const attempt = work().finally(() => {
      if (inFlight.get(token) === attempt) inFlight.delete(token)
    })
    inFlight.set(token, attempt)
    return attempt
  }

  /** Drives a record this process holds the claim of to its final status. */
  const finish = async (record: ActionConfirmation): Promise<ActionConfirmation | undefined> => {
    const claimId = record.claim?.id
    if (claimId === undefined) return record
    switch (record.status) {
      case 'approving': {
        const decision = policy ? await policy.check(record.action.name, 'execute', record.toolCallId) : { allowed: true, reason: 'allowed' as const }
        const nextRecord = decision.allowed
          ? await step(record, { type: 'execute', claimId })
          : await step(record, { type: 'deny', claimId, by: 'policy', reason: `policy: ${decision.reason}` })
        return nextRecord === undefined ? load(record.token) : finish(nextRecord)
      }
      case 'executing': {
        // The claim ran out while this process got here (a pause, a slow store): another process may
        // have taken the record over and be executing it. Only a live claim executes; a stale one
        // is finished by whoever takes it over (a retried approve, the sweep, reconcile).
        if ((record.claim?.until ?? 0) <= now()) return load(record.token)
        let outcome
        try {
          outcome = (await executor.execute(record, { idempotencyKey: record.idempotencyKey, token: record.token, toolCallId: record.toolCallId, sessionId, attempt: record.attempts })) ?? { status: 'complete' as const }
        } catch (thrown) {
          // The upstream failed (a lost connection, a controller that refused): it may or may not
          // have acted, so nothing is recorded as its outcome. The record stays `executing`, the
          // claim is given up and the caller hears why; a retry executes again, with the same key.
          await giveUp(record, claimId)
          throw thrown
        }
        return (await step(record, { type: 'executed', claimId, outcome })) ?? load(record.token)
      }
      case 'rejecting':
      case 'expiring':
        try {
          await executor.withdraw?.(record, record.reason ?? (record.status === 'expiring' ? 'confirmation expired' : 'rejected'))
        } catch (thrown) {
          // the decision stands; only the withdrawal is retried (reject or approve again, reconcile)
          await giveUp(record, claimId)
          throw thrown
        }
        return (await step(record, { type: 'withdrawn', claimId })) ?? load(record.token)
      default:
        return record
    }
  }

  /** The record for a caller: a foreign session or principal reads as missing (no existence leak). */
  const recordFor = async (token: string, caller: string | ConfirmationCaller): Promise<ActionConfirmation> => {
    const who = typeof caller === 'string' ? { sessionId: caller } : caller
    if (typeof token !== 'string' || who.sessionId !== sessionId) throw notFound(kit)
    const record = await load(token)
    // exactly the record's principal (both absent: an unauthenticated session)
    if (!record || record.principal !== (who.principal ?? principal)) throw notFound(kit)
    return record
  }

  /**
   * A processing record taken over with a new claim and finished, once its claim ran out; a record
   * whose holder's claim is still live is left to that holder (returned as it is).
   */
  const takeOver = async (record: ActionConfirmation): Promise<ActionConfirmation | undefined> => {
    const taken = await step(record, { type: 'reconcile', claim: claim() })
    if (taken === undefined) return load(record.token)
    return taken === record ? record : finish(taken)
  }

  const stale = (record: ActionConfirmation): boolean => PROCESSING_STATUSES.has(record.status) && (record.claim === undefined || record.claim.until <= now())

  /** `decide` on a pending record (approve or reject), CAS-claimed, then finished. */
  const decide = async (token: string, caller: string | ConfirmationCaller, event: (claimed: { id: string; until: number }, by: string) => ConfirmationEvent): Promise<ActionConfirmation> => {
    const record = await recordFor(token, caller)
    const by = (typeof caller === 'string' ? undefined : caller.principal) ?? principal ?? 'anonymous'
    const result = await singleFlight(token, async () => {
      const current = await load(token)
      // a decision already taken by a process that died: a retried click finishes it (never a second decision)
      if (current && stale(current)) return takeOver(current)
      if (!current || current.status !== 'pending') return current
      const claimed = await step(current, event(claim(), by))
      return claimed === undefined ? load(token) : finish(claimed)
    })
    return result ?? record
  }

  const expireOne = (record: ActionConfirmation): Promise<ActionConfirmation | undefined> =>
    singleFlight(record.token, async () => {
      const current = await load(record.token)
      if (!current || current.status !== 'pending' || now() < current.expiresAt) return current
      const claimed = await step(current, { type: 'expire', claim: claim() })
      return claimed === undefined ? load(record.token) : finish(claimed)
    })

  const sweep = async (records: readonly ActionConfirmation[], at: number): Promise<ActionConfirmation[]> => {
    const expired: ActionConfirmation[] = []
    for (const record of records) {
      // records left mid-way by a process that died are finished on the way (crash recovery)
      if (stale(record)) await singleFlight(record.token, () => takeOver(record)).catch(() => undefined)
      if (record.status !== 'pending' || at < record.expiresAt) continue
      const after = await expireOne(record)
      if (after?.status === 'expired' || after?.status === 'expiring') expired.push(after)
    }
    return expired
  }

  const timer = options.sweepEveryMs === undefined ? undefined : setInterval(() => {
    void ledger.listConfirmations(sessionId).then((records) => sweep(records, now())).catch(() => undefined)
  }, positive(kit, options.sweepEveryMs, 60_000, 'sweepEveryMs'))
  if (timer && typeof timer === 'object' && 'unref' in timer) timer.unref()

  return {
    sessionId,
    async propose(action, proposeOptions) {
      if (typeof action !== 'object' || action === null || !isIdentifier(action.name)) {
        throw kit.error({ code: 'ACTION_INVALID', message: `propose: the action name ${JSON.stringify((action as { name?: unknown } | null)?.name)} is not an identifier.`, hint: 'Pass { name, input } with a registered tool’s name.' })
      }
      const toolCallId = proposeOptions?.toolCallId ?? `app-${createId()}`
      if (!isIdentifier(toolCallId)) throw kit.error({ code: 'ACTION_INVALID', message: `propose: the tool call id ${JSON.stringify(toolCallId)} is not an identifier.`, hint: 'Use 1–128 characters from A–Z, a–z, 0–9 and . _ : -.' })
      const idempotencyKey = proposeOptions?.idempotencyKey ?? createId()
      if (typeof idempotencyKey !== 'string' || idempotencyKey === '' || idempotencyKey.length > 256) throw kit.error({ code: 'ACTION_INVALID', message: 'propose: the idempotency key must be 1–256 characters.', hint: 'Omit it for a new random key, or pass the key the action already has.' })
      let record: ActionConfirmation
      try {
        record = createConfirmationRecord({ token: createToken(), sessionId, ...(principal === undefined ? {} : { principal }), action, toolCallId, idempotencyKey, ttlMs }, now())
      } catch (error) {
        throw kit.error({ code: 'ACTION_INVALID', message: `propose("${action.name}"): ${describe(error)}`, hint: 'Pass the input as a plain JSON object.' })
      }
      if (policy) {
        const decision = await policy.check(action.name, 'propose', toolCallId)
        if (!decision.allowed) throw kit.error({ code: 'ACTION_REFUSED', message: `propose("${action.name}"): refused by policy (${decision.reason}).`, hint: 'The trusted context lacks what the action requires; see the policy trace.' })
      }
      const proposed = await executor.propose?.({ toolCallId, name: action.name, input: structuredClone(record.action.input) as Record<string, unknown> })
      const adopted = proposed?.toolCallId
      if (adopted !== undefined && adopted !== toolCallId) {
        if (!isIdentifier(adopted)) throw kit.error({ code: 'ACTION_INVALID', message: `propose("${action.name}"): the controller returned the tool call under the id ${JSON.stringify(adopted)}, which is not an identifier.`, hint: 'A controller’s proposeToolCall must return the call with an id of 1–128 characters from A–Z, a–z, 0–9 and . _ : -.' })
        // not saved yet, so no revision to bump; its nested fields are frozen already
        record = Object.freeze({ ...record, toolCallId: adopted })
      }
      if (!(await ledger.saveConfirmation(record, 0))) throw kit.error({ code: 'CONFIRMATION_CONFLICT', message: 'propose: the token is already in use.', hint: 'createToken must return a new unguessable token every call.' })
      return seen(record)
    },
    approve: (token, caller) => decide(token, caller, (claimed, by) => ({ type: 'approve', by, claim: claimed })),
    reject: (token, caller, reason) => decide(token, caller, (claimed, by) => ({ type: 'reject', by, claim: claimed, ...(reason === undefined ? {} : { reason }) })),
    async get(token) {
      const record = await load(token)
      if (record?.status === 'pending' && now() >= record.expiresAt) return expireOne(record)
      return record
    },
    getByToolCall(toolCallId) {
      const token = byToolCall.get(toolCallId)
      const mine = token === undefined ? undefined : known.get(token)
      // a record stored before this coordinator existed (a resumed session): the newer revision wins
      const stored = ledger.peekByToolCall?.(sessionId, toolCallId)
      return stored !== undefined && (mine === undefined || stored.revision > mine.revision) ? stored : mine
    },
    getSnapshot: () => [...known.values()],
    async list() {
      const records = (await ledger.listConfirmations(sessionId)).map(seen)
      await sweep(records, now())
      return (await ledger.listConfirmations(sessionId)).map(seen)
    },
    async sweepExpired(at) {
      return sweep((await ledger.listConfirmations(sessionId)).map(seen), at ?? now())
    },
    reconcile: (token) =>
      singleFlight(token, async () => {
        const record = await load(token)
        if (!record || FINAL_STATUSES.has(record.status)) return record
        if (record.status === 'pending') return now() >= record.expiresAt ? expireOneLocked(record) : record
        return takeOver(record)
      }),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      if (timer) clearInterval(timer)
      listeners.clear()
    },
  }

  /** `expireOne` inside an attempt already single-flighted. */
  async function expireOneLocked(record: ActionConfirmation): Promise<ActionConfirmation | undefined> {
    const claimed = await step(record, { type: 'expire', claim: claim() })
    return claimed === undefined ? load(record.token) : finish(claimed)
  }
}
