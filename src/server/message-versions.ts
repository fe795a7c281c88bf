import type { Message } from '../contract/message.js'
import type { VersionPosition, VersionPositions } from '../protocol/version-positions.js'

/**
 * The versions of a stored conversation (issue #31 item 9), kept without a schema change: an edit
 * or a regenerate replaces the history from one *place* on (the edited user message, or the reply
 * regenerated), and what it replaced rides in the metadata of the new visible head of that place
 * (`metadata.versions`), written by the same fenced append that truncates. A version is the whole
 * replaced suffix, its messages as stored (so versions nested in it, on its own heads, come back
 * as they were left). Only the server reads this key: it is never taken from a client's message
 * (the server builds every message it stores) and never sent to `useChat` (ui-messages.ts).
 *
 * Stored shape: `{ shown, others, revisions }`, `shown` the number of the visible version, `others`
 * every other version in creation order (version `i` is `others[i]` below `shown`, `others[i - 1]`
 * above), `revisions` the definition revisions they were kept under: a store re-derives only the
 * visible branch when the definition changes, so a version kept under another revision is
 * re-derived when it is switched to. Pure functions.
 */
export interface StoredVersions {
  readonly shown: number
  readonly others: readonly StoredSuffix[]
  readonly revisions?: readonly number[]
}

/** A replaced suffix as JSON (`createdAt` an ISO string), so every store keeps it alike. */
export type StoredSuffix = readonly StoredMessage[]
export type StoredMessage = Omit<Message, 'createdAt'> & { readonly createdAt: string }

/** The most versions one place keeps (the oldest go first). */
export const MAX_VERSIONS_PER_PLACE = 10
/** The most bytes (JSON) one place's kept versions take together, nested ones included (the oldest go first). */
export const MAX_VERSION_BYTES = 256 * 1024

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The versions a stored message heads, when its metadata holds a well-formed record of them. */
export function versionsOf(message: Message | StoredMessage | undefined): StoredVersions | undefined {
  const candidate = message?.metadata?.versions
  if (!isObject(candidate)) return undefined
  const { shown, others } = candidate
  if (!Array.isArray(others) || others.length === 0 || !Number.isSafeInteger(shown) || (shown as number) < 0 || (shown as number) > others.length) return undefined
  if (!others.every((suffix) => Array.isArray(suffix) && suffix.length > 0 && suffix.every((m) => isObject(m) && typeof m.id === 'string' && typeof m.role === 'string' && typeof m.createdAt === 'string'))) return undefined
  const { revisions } = candidate
  const known = Array.isArray(revisions) && revisions.every((revision) => Number.isSafeInteger(revision)) ? { revisions: revisions as number[] } : {}
  return { shown: shown as number, others: others as StoredSuffix[], ...known }
}

/** The message without its record of versions (what a version keeps of its head, and what a client copy must never carry). */
export function withoutVersions<M extends Message | StoredMessage>(message: M): M {
  if (message.metadata?.versions === undefined) return message
  const { versions: _dropped, ...rest } = message.metadata
  return { ...message, ...(Object.keys(rest).length > 0 ? { metadata: rest } : { metadata: undefined }) } as M
}

/** The message with `versions` as its record of them (none: the key removed). */
export function withVersions(message: Message, versions: StoredVersions | undefined): Message {
  const bare = withoutVersions(message)
  if (versions === undefined) return stripUndefinedMetadata(bare)
  return { ...bare, metadata: { ...bare.metadata, versions } }
}

function stripUndefinedMetadata(message: Message): Message {
  if (message.metadata !== undefined || !('metadata' in message)) return message
  const { metadata: _none, ...rest } = message
  return rest
}

const toStored = (message: Message): StoredMessage => ({ ...message, createdAt: message.createdAt.toISOString() })
const fromStored = (message: StoredMessage): Message => ({ ...message, createdAt: new Date(message.createdAt) })
const bytesOf = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).byteLength

/**
 * The record of versions the new head of the place at `at` gets when the turn replaces
 * `history.slice(at)`: the place's versions so far, plus the replaced suffix (its head without its
 * record) when `keep` (an edit, a regenerate), the new suffix shown last. Without `keep` (a retry
 * of a failed reply) the new suffix takes the replaced one's number and nothing more is kept.
 * Bounded by `MAX_VERSIONS_PER_PLACE` and `MAX_VERSION_BYTES`: the oldest versions are dropped
 * first, and a version bigger than the byte bound alone is not kept. Undefined: none to keep.
 */
export function versionsAfterReplacing(history: readonly Message[], at: number, keep: boolean, revision: number): StoredVersions | undefined {
  const head = history[at]
  if (head === undefined) return undefined
  const before = versionsOf(head) ?? { shown: 0, others: [] }
  if (!keep) return before.others.length > 0 ? before : undefined
  const replaced = history.slice(at).map((message, index) => toStored(index === 0 ? withoutVersions(message) : message))
  const others = [...before.others.slice(0, before.shown), replaced, ...before.others.slice(before.shown)]
  // the replaced suffix was visible, so stored under this revision; older versions keep theirs
  const revisions = [...new Set([...(before.revisions ?? []), revision])]
  return bounded(others, revisions)
}

/** Whether a version of `versions` may have been kept under a revision other than `revision` (a switch re-derives then). */
export function keptUnderAnotherRevision(versions: StoredVersions | undefined, revision: number): boolean {
  return versions !== undefined && (versions.revisions === undefined || versions.revisions.some((kept) => kept !== revision))
}

/** `others`, the new suffix shown after them, the oldest dropped until within the bounds. */
function bounded(all: StoredSuffix[], revisions: readonly number[]): StoredVersions | undefined {
  const others = [...all]
  const sizes = others.map(bytesOf)
  let bytes = sizes.reduce((sum, size) => sum + size, 0)
  while (others.length > 0 && (others.length + 1 > MAX_VERSIONS_PER_PLACE || bytes > MAX_VERSION_BYTES)) {
    others.shift()
    bytes -= sizes.shift() as number
  }
  return others.length === 0 ? undefined : { shown: others.length, others, revisions }
}

/** What a switch to version `index` of the place headed by `history[at]` writes: the suffix to append after `history[at - 1]`. */
export type SwitchOutcome =
  | { readonly kind: 'switched'; readonly suffix: Message[] }
  | { readonly kind: 'same' }
  | { readonly kind: 'out-of-range'; readonly count: number }

/**
 * Version `index` of the place headed by `history[at]`, as the suffix to store in place of the
 * visible one (pure): the chosen version's head carries the place's record, the visible suffix
 * kept in it under its number.
 */
export function switchVersion(history: readonly Message[], at: number, index: number): SwitchOutcome {
  const head = history[at] as Message
  const versions = versionsOf(head) ?? { shown: 0, others: [] }
  const count = versions.others.length + 1
  if (index >= count) return { kind: 'out-of-range', count }
  if (index === versions.shown) return { kind: 'same' }
  const visible = history.slice(at).map((message, i) => toStored(i === 0 ? withoutVersions(message) : message))
  const all: StoredSuffix[] = [...versions.others.slice(0, versions.shown), visible, ...versions.others.slice(versions.shown)]
  const chosen = all[index] as StoredSuffix
  const others = all.filter((_, i) => i !== index)
  const suffix = chosen.map(fromStored)
  suffix[0] = withVersions(suffix[0] as Message, { shown: index, others, ...(versions.revisions ? { revisions: versions.revisions } : {}) })
  return { kind: 'switched', suffix }
}

/**
 * Where each place of `history` with versions stands, keyed by its user message (pure, O(n)). An
 * edited user message is a `question` place; the first reply after a user message an `answer` one.
 */
export function versionPositions(history: readonly Message[]): VersionPositions {
  const positions: Record<string, { question?: VersionPosition; answer?: VersionPosition }> = {}
  let user: string | undefined
  let answered = false
  for (const message of history) {
    if (message.role === 'user') {
      user = message.id
      answered = false
    }
    const versions = versionsOf(message)
    if (message.role === 'user') {
      if (versions) positions[message.id] = { ...positions[message.id], question: positionOf(versions) }
      continue
    }
    if (message.role !== 'assistant' || user === undefined || answered) continue
    answered = true
    if (versions) positions[user] = { ...positions[user], answer: positionOf(versions) }
  }
  return positions
}

const positionOf = (versions: StoredVersions): VersionPosition => ({ index: versions.shown, count: versions.others.length + 1 })
