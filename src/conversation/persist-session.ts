import type { ActionConfirmation, ConfirmationLedger } from '../contract/action-confirmation.js'
import type { Message } from '../contract/message.js'
import type { Decision } from './decisions.js'
import type { JsonObject } from './json.js'
import { MAX_CONFIRMATIONS, MAX_DECISIONS, parseSessionEnvelope, SESSION_SNAPSHOT_PROTOCOL, SESSION_SNAPSHOT_VERSION } from './persist-envelope.js'
import type { PersistKit } from './persist-kit.js'
import type { SessionCore } from './session-core.js'
import type { SessionSnapshotEnvelope, SessionStorage, StoredDecision } from './session-storage.js'

/**
 * A session's persistence (loaded on first use: a session without `storage` never ships it).
 * Saves are serialised (one at a time, in call order) and each is a compare-and-swap on the cursor
 * the session last read or wrote. The snapshot is derived, like the session's state, from the
 * timeline: the decided user messages with their records and answers, which a resume replays as
 * a trusted history. Confirmation records of the session live here and are written through: a
 * change is kept only once it is saved, so two instances approving one token race on the cursor
 * and the loser's `approve` rejects with `SessionConflictError` (it executed nothing).
 */

export interface PersisterDeps {
  readonly core: SessionCore<JsonObject>
  readonly storage: SessionStorage
  readonly clock: () => Date
  readonly signal: AbortSignal | undefined
  /** Adopts a history the session's host vouches for (`session.sync(messages, { trusted: true })`). */
  readonly sync: (messages: readonly Message[]) => void
  readonly kit: PersistKit
}

export interface Persister {
  /** Saves now (after any save in flight); rejects with `SessionConflictError` on a lost race. */
  persist: (signal?: AbortSignal) => Promise<void>
  /** The stored snapshot's cursor this session last read or wrote (0: none). */
  cursor: () => number
  /** The session's confirmation records, written through to storage. */
  readonly ledger: ConfirmationLedger
  /** Adopts a parsed envelope: replays its decisions and must end at its state, else `ChatrailConfigError`. */
  restore: (envelope: SessionSnapshotEnvelope) => void
}

const ANSWER_EPOCH = new Date(0)

/** A decision that changes nothing a replay needs (an agentic turn that stayed put): not stored. */
function isNoOp(decision: Decision<JsonObject>): boolean {
  const record = decision.record
  return record.kind === 'agentic' && record.event === undefined && !record.restart && record.assign === undefined && record.unset === undefined && record.fromState === record.toState
}

/** The answer's text when every replayed chunk is text (what a retry after resume replays), else null. */
function answerText(decision: Decision<JsonObject>): string | null {
  if (decision.chunks === undefined) return null
  let text = ''
  for (const chunk of decision.chunks) {
    if (chunk.type !== 'text' || typeof chunk.content !== 'string') return null
    text += chunk.content
  }
  return text
}

/** The input key (`inputKeyOf`): the text, then `\0` and the UI event when there is one. */
function splitInputKey(inputKey: string): { input: string; uiEvent?: string } {
  const at = inputKey.lastIndexOf('\u0000')
  if (at < 0) return { input: inputKey }
  const uiEvent = inputKey.slice(at + 1)
  return /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(uiEvent) ? { input: inputKey.slice(0, at), uiEvent } : { input: inputKey }
}

/** The history a stored decision stands for: its user message and the answer carrying its record. */
function historyOf(decisions: readonly StoredDecision[]): Message[] {
  const messages: Message[] = []
  for (const stored of decisions) {
    messages.push({ id: stored.messageId, role: 'user', content: stored.input, status: 'complete', createdAt: ANSWER_EPOCH, ...(stored.uiEvent === undefined ? {} : { metadata: { chatrail: { event: stored.uiEvent } } }) })
    // An answer without replayable text is marked `error`: the timeline then keeps the record but
    // no chunks, so a retry after resume runs the turn again instead of replaying an empty answer.
    messages.push({ id: stored.answerId, role: 'assistant', content: stored.answer ?? '', status: stored.answer === null ? 'error' : 'complete', createdAt: ANSWER_EPOCH, metadata: { chatrail: stored.record as unknown as JsonObject } })
  }
  return messages
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys = Object.keys(left).filter((key) => left[key] !== undefined)
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false
  return keys.every((key) => jsonEqual(left[key], right[key]))
}

const FINAL = new Set(['approved', 'rejected', 'expired'])

export function createPersister(deps: PersisterDeps): Persister {
  const { core, storage, kit } = deps
  const { sessionId, definition } = core
  let cursor: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  // insertion order is creation order (a replaced record keeps its place)
  let records = new Map<string, ActionConfirmation>()

  function snapshot(next: number): SessionSnapshotEnvelope {
    const decisions: StoredDecision[] = []
    core.timeline.entries().forEach(({ messageId, inputKey, decision }, k) => {
      if (!decision || isNoOp(decision)) return
      decisions.push({ messageId, ...splitInputKey(inputKey), answerId: decision.answerId ?? `answer.${kit.fingerprint(messageId)}.${k}`, answer: answerText(decision), record: decision.record })
    })
    if (decisions.length > MAX_DECISIONS) {
      throw kit.configError('session_too_long', ['persist'], `Session "${sessionId}" has ${decisions.length} decided turns; a snapshot holds at most ${MAX_DECISIONS}.`, 'Keep long conversations in a ConversationStore (its history carries every decision), or start a new session.')
    }
    const current = core.timeline.current()
    return {
      protocol: SESSION_SNAPSHOT_PROTOCOL,
      version: SESSION_SNAPSHOT_VERSION,
      sessionId,
      definitionId: definition.id,
      definitionRevision: definition.revision,
      updatedAt: deps.clock().toISOString(),
      cursor: next,
      conversation: { state: current.state, context: current.context, decisions },
      confirmations: [...records.values()],
    }
  }

  async function save(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted()
    const expected = cursor
    const envelope = snapshot((expected ?? 0) + 1)
    if (!(await storage.save(envelope, expected, signal))) throw kit.conflict(sessionId, expected)
    cursor = envelope.cursor
  }

  function persist(signal?: AbortSignal): Promise<void> {
    const run = queue.then(() => save(signal ?? deps.signal))
    queue = run.catch(() => undefined)
    return run
  }

  /**
   * After a lost race: the stored confirmation records, so reads show the winner's decision. The
   * cursor is kept: every later save of this session conflicts too, until it is resumed, so a
   * session that lost a race never overwrites what the winner saved.
   */
  async function refresh(): Promise<void> {
    const raw = await storage.load(sessionId, deps.signal)
    if (raw === undefined || raw === null) return
    const envelope = parseSessionEnvelope(raw, { sessionId, definitionId: definition.id, definitionRevision: definition.revision }, kit)
    records = new Map(envelope.confirmations.map((record) => [record.token, record]))
  }

  function prune(): void {
    for (const [token, record] of records) {
      if (records.size <= MAX_CONFIRMATIONS) return
      if (FINAL.has(record.status)) records.delete(token)
    }
  }

  const ledger: ConfirmationLedger = {
    async saveConfirmation(record, expected) {
      const stored = records.get(record.token)
      if ((stored?.revision ?? 0) !== expected || record.sessionId !== sessionId) return false
      records.set(record.token, record)
      prune()
      try {
        await persist()
        return true
      } catch (error) {
        if (stored) records.set(record.token, stored)
        else records.delete(record.token)
        // Another writer saved the session since this one read it: this instance's records may be
        // stale, so the change is refused loudly (the caller's approve rejects; nothing executed)
        // rather than reported as a lost race on a record that may still read `pending` here.
        if (kit.isConflict(error)) await refresh().catch(() => undefined)
        throw error
      }
    },
    async loadConfirmation(token) {
      return records.get(token)
    },
    async listConfirmations(forSession, options) {
      const limit = options?.limit ?? 100
      return [...records.values()].filter((record) => record.sessionId === forSession).slice(0, limit)
    },
    peekByToolCall: (forSession, toolCallId) => [...records.values()].findLast((record) => record.sessionId === forSession && record.toolCallId === toolCallId),
  }

  function restore(envelope: SessionSnapshotEnvelope): void {
    const stored = envelope.conversation
    deps.sync(historyOf(stored.decisions))
    const current = core.timeline.current()
    const unreplayed = stored.decisions.findIndex((decision) => core.timeline.applied(decision.messageId)?.record.turnId !== decision.record.turnId)
    if (unreplayed >= 0 || current.state !== stored.state || !jsonEqual(current.context, stored.context)) {
      const at = unreplayed >= 0 ? `decision ${unreplayed} (route ${JSON.stringify(stored.decisions[unreplayed]?.record.routeId ?? null)}, message "${stored.decisions[unreplayed]?.messageId ?? ''}") does not replay on this definition` : `its decisions replay to state "${current.state}"${current.state === stored.state ? ' with another context' : ''}, not the stored "${stored.state}"`
      throw kit.configError('incompatible_session_snapshot', ['snapshot', 'conversation', ...(unreplayed >= 0 ? ['decisions', unreplayed] : ['state'])], `The stored session "${sessionId}" is incompatible: ${at}.`, 'The routes or states changed since it was saved: bump the definition\'s revision so old sessions start fresh, or resume with the definition that saved it.')
    }
    records = new Map(envelope.confirmations.map((record) => [record.token, record]))
    cursor = envelope.cursor
  }

  return { persist, cursor: () => cursor ?? 0, ledger, restore }
}
