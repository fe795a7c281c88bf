import type { ChatrailConfigError } from './config-error.js'
import type { PersistKit } from './persist-kit.js'
import type { SessionSnapshotEnvelope } from './session-storage.js'

/**
 * Reads a `chatrail.session` envelope from storage: outside input, so it is copied
 * (`structuredClone`: getters run once, no prototype survives) and checked whole before a session
 * sees any of it; anything else is a `ChatrailConfigError` naming the field and the fix (never a
 * crash, never a partly restored session). A hand-written check, not zod: a zod schema here would
 * make an app that imports `chatrail` keep zod's parts for it in its initial load (zod's modules are
 * shared with the app's own use of zod). Bounds (docs/persistence.md § Session snapshots): at most
 * `MAX_DECISIONS` decisions and `MAX_CONFIRMATIONS` confirmation records, texts of at most
 * `MAX_TEXT` characters, a context of at most `MAX_CONTEXT` characters of JSON.
 */

export const SESSION_SNAPSHOT_PROTOCOL = 'chatrail.session'
export const SESSION_SNAPSHOT_VERSION = 1
export const MAX_DECISIONS = 1000
export const MAX_CONFIRMATIONS = 1000
export const MAX_TEXT = 100_000
export const MAX_CONTEXT = 1_000_000
const MAX_ID = 256

type Path = (string | number)[]
type Fields = Record<string, unknown>

/** A malformed field (caught and turned into the `corrupt_session_snapshot` error). */
class Malformed {
  constructor(
    readonly path: Path,
    readonly expected: string,
  ) {}
}

const STATUSES: ReadonlySet<unknown> = new Set(['pending', 'approving', 'executing', 'rejecting', 'expiring', 'approved', 'rejected', 'expired'])
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

function isPlainObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

/** The checks, each throwing `Malformed` at its path. */
function checker(isIdentifier: PersistKit['isIdentifier']) {
  const expect = (ok: boolean, path: Path, expected: string): void => {
    if (!ok) throw new Malformed(path, expected)
  }
  const object = (value: unknown, path: Path, keys?: readonly string[]): Fields => {
    expect(isPlainObject(value), path, 'an object')
    const fields = value as Fields
    if (keys) for (const key of Object.keys(fields)) expect(keys.includes(key), [...path, key], `no key "${key}" (allowed: ${keys.join(', ')})`)
    return fields
  }
  const text = (value: unknown, path: Path, min: number, max: number): string => {
    expect(typeof value === 'string' && value.length >= min && value.length <= max, path, `a string of ${min} to ${max} characters`)
    return value as string
  }
  const identifier = (value: unknown, path: Path): string => {
    expect(isIdentifier(value), path, 'an identifier (1–128 of A–Z a–z 0–9 . _ : -, starting with a letter or digit)')
    return value as string
  }
  const whole = (value: unknown, path: Path, min: number): number => {
    expect(Number.isSafeInteger(value) && (value as number) >= min, path, `a whole number ≥ ${min}`)
    return value as number
  }
  const list = (value: unknown, path: Path, max: number): unknown[] => {
    expect(Array.isArray(value) && value.length <= max, path, `a list of at most ${max}`)
    return value as unknown[]
  }
  return { expect, object, text, identifier, whole, list }
}

function checkEnvelope(value: unknown, kit: PersistKit): void {
  const { expect, object, text, identifier, whole, list } = checker(kit.isIdentifier)
  const top = object(value, [], ['protocol', 'version', 'sessionId', 'definitionId', 'definitionRevision', 'updatedAt', 'cursor', 'conversation', 'confirmations'])
  identifier(top.sessionId, ['sessionId'])
  text(top.definitionId, ['definitionId'], 1, MAX_ID)
  whole(top.definitionRevision, ['definitionRevision'], 1)
  expect(typeof top.updatedAt === 'string' && ISO_TIME.test(top.updatedAt) && !Number.isNaN(Date.parse(top.updatedAt)), ['updatedAt'], 'an ISO 8601 time')
  whole(top.cursor, ['cursor'], 1)
  const conversation = object(top.conversation, ['conversation'], ['state', 'context', 'decisions'])
  identifier(conversation.state, ['conversation', 'state'])
  object(conversation.context, ['conversation', 'context'])
  list(conversation.decisions, ['conversation', 'decisions'], MAX_DECISIONS).forEach((item, i) => {
    const at: Path = ['conversation', 'decisions', i]
    const decision = object(item, at, ['messageId', 'input', 'uiEvent', 'answerId', 'answer', 'record'])
    text(decision.messageId, [...at, 'messageId'], 1, MAX_ID)
    text(decision.input, [...at, 'input'], 0, MAX_TEXT)
    if (decision.uiEvent !== undefined) identifier(decision.uiEvent, [...at, 'uiEvent'])
    text(decision.answerId, [...at, 'answerId'], 1, MAX_ID)
    if (decision.answer !== null) text(decision.answer, [...at, 'answer'], 0, MAX_TEXT)
    // the record is checked again, exactly, by the timeline (`readDecisionRecord`); here what the envelope relies on
    const record = object(decision.record, [...at, 'record'])
    expect(record.v === 1, [...at, 'record', 'v'], '1')
    expect(record.messageId === decision.messageId, [...at, 'record', 'messageId'], `the decision's own message id "${String(decision.messageId)}"`)
    text(record.turnId, [...at, 'record', 'turnId'], 1, MAX_ID)
    identifier(record.fromState, [...at, 'record', 'fromState'])
    identifier(record.toState, [...at, 'record', 'toState'])
  })
  list(top.confirmations, ['confirmations'], MAX_CONFIRMATIONS).forEach((item, i) => {
    const at: Path = ['confirmations', i]
    const record = object(item, at)
    text(record.token, [...at, 'token'], 1, MAX_ID)
    expect(record.sessionId === top.sessionId, [...at, 'sessionId'], `this session's id "${String(top.sessionId)}"`)
    const action = object(record.action, [...at, 'action'])
    identifier(action.name, [...at, 'action', 'name'])
    object(action.input, [...at, 'action', 'input'])
    identifier(record.toolCallId, [...at, 'toolCallId'])
    whole(record.createdAt, [...at, 'createdAt'], 0)
    whole(record.expiresAt, [...at, 'expiresAt'], 0)
    expect(STATUSES.has(record.status), [...at, 'status'], `one of ${[...STATUSES].join(', ')}`)
    text(record.idempotencyKey, [...at, 'idempotencyKey'], 1, MAX_ID)
    if (record.claim !== undefined) {
      const claim = object(record.claim, [...at, 'claim'], ['id', 'until'])
      text(claim.id, [...at, 'claim', 'id'], 1, MAX_ID)
      whole(claim.until, [...at, 'claim', 'until'], 0)
    }
    whole(record.attempts, [...at, 'attempts'], 0)
    whole(record.revision, [...at, 'revision'], 1)
  })
}

/** What the snapshot must belong to. */
export interface EnvelopeExpectation {
  readonly sessionId: string
  readonly definitionId: string
  readonly definitionRevision: number
}

const RESAVE = 'Resave the session from a running one (session.persist()), or delete the stored snapshot to start fresh.'

/**
 * The envelope in `raw`, deep-frozen, or a `ChatrailConfigError` (`incompatible_session_snapshot`
 * for another format, version, session, definition or revision; `corrupt_session_snapshot` for
 * anything malformed). Pure.
 */
export function parseSessionEnvelope(raw: unknown, expected: EnvelopeExpectation, kit: PersistKit): SessionSnapshotEnvelope {
  const incompatible = (path: (string | number)[], message: string, hint: string): ChatrailConfigError => kit.configError('incompatible_session_snapshot', ['snapshot', ...path], message, hint)
  const corrupt = (path: (string | number)[], message: string): ChatrailConfigError => kit.configError('corrupt_session_snapshot', ['snapshot', ...path], message, RESAVE)
  let value: unknown
  try {
    value = structuredClone(raw)
  } catch {
    throw corrupt([], `The stored session "${expected.sessionId}" is not plain data (it holds functions, symbols or host objects).`)
  }
  // Format and ownership first, so the message says "another definition", not "a field is wrong".
  if (!isPlainObject(value) || value.protocol !== SESSION_SNAPSHOT_PROTOCOL) {
    throw incompatible(['protocol'], `The stored session "${expected.sessionId}" is incompatible: it is not a ${SESSION_SNAPSHOT_PROTOCOL} snapshot (protocol ${JSON.stringify(isPlainObject(value) ? value.protocol : typeof value) ?? 'undefined'}).`, `Store what session.persist() saves, unchanged. ${RESAVE}`)
  }
  if (value.version !== SESSION_SNAPSHOT_VERSION) {
    throw incompatible(['version'], `The stored session "${expected.sessionId}" is incompatible: snapshot version ${JSON.stringify(value.version)}, this chatrail reads version ${SESSION_SNAPSHOT_VERSION}.`, RESAVE)
  }
  if (value.sessionId !== expected.sessionId) {
    throw incompatible(['sessionId'], `The stored session is incompatible: it belongs to session ${JSON.stringify(value.sessionId)}, not "${expected.sessionId}".`, 'storage.load(sessionId) must return the snapshot saved for that id.')
  }
  if (value.definitionId !== expected.definitionId) {
    throw incompatible(['definitionId'], `The stored session "${expected.sessionId}" is incompatible: it was saved by definition ${JSON.stringify(value.definitionId)}, not "${expected.definitionId}".`, 'Resume it with the definition that saved it, or start a new session id.')
  }
  if (value.definitionRevision !== expected.definitionRevision) {
    throw incompatible(['definitionRevision'], `The stored session "${expected.sessionId}" is incompatible: it was saved by revision ${JSON.stringify(value.definitionRevision)} of "${expected.definitionId}", this is revision ${expected.definitionRevision}.`, 'A new revision invalidates stored sessions on purpose: start a new session, or resume with the revision that saved it.')
  }
  try {
    checkEnvelope(value, kit)
  } catch (error) {
    if (!(error instanceof Malformed)) throw error
    throw corrupt(error.path, `The stored session "${expected.sessionId}" is corrupt at ${error.path.join('.') || '(root)'}: expected ${error.expected}.`)
  }
  const envelope = value as unknown as SessionSnapshotEnvelope
  const contextPath = kit.findNonJson(envelope.conversation.context)
  if (contextPath || JSON.stringify(envelope.conversation.context).length > MAX_CONTEXT) {
    throw corrupt(['conversation', 'context', ...(contextPath ?? [])], `The stored session "${expected.sessionId}" has a context that is not JSON or is over ${MAX_CONTEXT} characters.`)
  }
  const seen = new Set<string>()
  envelope.conversation.decisions.forEach((stored, i) => {
    if (stored.record.messageId !== stored.messageId || seen.has(stored.messageId)) {
      throw corrupt(['conversation', 'decisions', i, 'messageId'], `The stored session "${expected.sessionId}" has decision ${i} for message "${stored.messageId}" twice or under another message's record.`)
    }
    seen.add(stored.messageId)
  })
  envelope.confirmations.forEach((stored, i) => {
    if (stored.sessionId !== expected.sessionId || kit.findNonJson(stored)) {
      throw corrupt(['confirmations', i], `The stored session "${expected.sessionId}" holds confirmation ${i} of another session, or one that is not JSON.`)
    }
  })
  return kit.deepFreeze(envelope)
}
