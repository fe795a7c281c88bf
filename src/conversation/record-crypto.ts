import type { HistoryView } from '../contract/history-view.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import type { DecisionRecord, doneWithRecord, readDecisionRecord } from './decision-record.js'

/**
 * HMAC-SHA-256 over Web Crypto (browsers and Node alike) for signed decision records, and the
 * signing, verifying and signed stream built on it. Loaded only by sessions with a `recordKey`
 * (record-signing.ts imports it lazily), so the core entry does not carry it.
 */

/** A session's `recordKey`: a secret of at least 16 bytes (string or bytes), or an HMAC `CryptoKey`. */
export type RecordKey = string | Uint8Array | CryptoKey

export interface RecordCrypto {
  /** The base64url HMAC of `text`. */
  sign: (text: string) => Promise<string>
  verify: (text: string, sig: string) => Promise<boolean>
}

/** What verifying a history found: records that failed (unsigned or forged) and records newly verified. */
export interface Verdicts {
  readonly untrusted: number
  readonly verified: number
}

/** Hears a turn's verdicts (when any record was untrusted or newly verified), its history and its user message's id. */
export type OnVerdicts = (verdicts: Verdicts, history: HistoryView, lastUserId: string | undefined) => void

export interface RecordSigner {
  /** The record with its `sig`, remembered as trusted. */
  sign: (record: DecisionRecord) => Promise<DecisionRecord>
  /**
   * Verifies the records in `history` not yet known: how many of its records are untrusted
   * (unsigned or invalid) and how many verified anew. Reads only the messages it has not seen.
   */
  verify: (history: HistoryView) => Promise<Verdicts>
  /** Synchronous: was this exact record signed here, verified, or vouched for? */
  trusted: (record: DecisionRecord) => boolean
  /** The host vouches for these messages' records (history from its own store). */
  vouch: (messages: readonly Message[]) => void
}

/** What a signer remembers; the signing and verifying code (record-crypto.ts) works on it. */
export interface SignerMemory {
  /** canonical text + signature of every record known good; bounded by the history the session saw. */
  readonly known: Set<string>
  readonly failed: Set<string>
  /**
   * Per message object already verified: where it sat in that history and how many untrusted
   * records the history held up to it. A history that extends one verified before is read from
   * there (issue 20: a signed session's turn read its whole history, so it grew with the
   * conversation). Replaced when the host vouches.
   */
  checked: WeakMap<Message, { readonly at: number; readonly untrusted: number }>
  readonly identity: (record: DecisionRecord) => string
  readonly canonical: (record: DecisionRecord) => string
  readonly hmac: () => Promise<RecordCrypto>
  // Handed over rather than imported, so the lazy chunk shares no module with the entry.
  readonly read: typeof readDecisionRecord
  readonly withRecord: typeof doneWithRecord
}

const DOMAIN = 'chatrail.decision-record.v1\n'
const encode = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text)

function base64url(bytes: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/') + '=')
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export async function createRecordCrypto(key: RecordKey): Promise<RecordCrypto> {
  const cryptoKey =
    typeof key === 'string' || key instanceof Uint8Array
      ? await globalThis.crypto.subtle.importKey('raw', typeof key === 'string' ? encode(key) : new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
      : key
  return {
    sign: async (text) => base64url(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, encode(DOMAIN + text))),
    async verify(text, sig) {
      const bytes = fromBase64url(sig)
      return bytes !== undefined && globalThis.crypto.subtle.verify('HMAC', cryptoKey, bytes, encode(DOMAIN + text))
    },
  }
}

/** The record with its `sig`, remembered as trusted. */
export async function signRecord(memory: SignerMemory, record: DecisionRecord): Promise<DecisionRecord> {
  const unsigned = { ...record }
  delete unsigned.sig
  const signed = Object.freeze({ ...unsigned, sig: await (await memory.hmac()).sign(memory.canonical(unsigned)) })
  memory.known.add(memory.identity(signed))
  return signed
}

/**
 * Verifies the records in `history` not yet known: how many of its records are untrusted (unsigned
 * or invalid) and how many verified anew. Messages are read from the newest one verified before at
 * the same position (the same object: the controller never changes a message in place), so a turn
 * reads only what is new; messages added or removed before it move it, and the history is read
 * whole. As in the timeline's reconciliation, a message replaced in place before that point is not
 * read again. Trust does not depend on any of this: the timeline adopts a record only when its
 * exact content is known good.
 */
export async function verifyRecords(memory: SignerMemory, history: HistoryView): Promise<Verdicts> {
  // Taken once: a `vouch` while this runs replaces the map, and counts taken before it stay out of the new one.
  const checked = memory.checked
  let start = history.length
  let untrusted = 0
  for (; start > 0; start--) {
    const message = history.at(start - 1)
    const before = message && checked.get(message)
    if (before !== undefined && before.at === start - 1) {
      untrusted = before.untrusted
      break
    }
  }
  let verified = 0
  for (let i = start; i < history.length; i++) {
    const message = history.at(i)
    if (message === undefined) continue
    const record = message.role === 'assistant' ? memory.read(message) : undefined
    const id = record && memory.identity(record)
    if (record && id !== undefined && !memory.known.has(id)) {
      const valid = record.sig !== undefined && !memory.failed.has(id) && (await (await memory.hmac()).verify(memory.canonical(record), record.sig))
      if (valid) {
        memory.known.add(id)
        verified += 1
      } else {
        memory.failed.add(id)
        untrusted += 1
      }
    }
    checked.set(message, { at: i, untrusted })
  }
  return { untrusted, verified }
}

/** The turn's chunks after verifying its history, with the `done` record signed (record-signing.ts `signedTurnSource`). */
export async function* signedStream(signer: RecordSigner, memory: SignerMemory, history: HistoryView, inner: StreamSource, onVerdicts: OnVerdicts): AsyncGenerator<StreamChunk, void> {
  const verdicts = await signer.verify(history)
  if (verdicts.untrusted > 0 || verdicts.verified > 0) {
    // the turn's user message (the last one), found here rather than in the session's chunk every app loads
    let last: Message | undefined
    for (let i = history.length - 1; i >= 0 && !last; i--) {
      const message = history.at(i)
      if (message?.role === 'user') last = message
    }
    onVerdicts(verdicts, history, last?.id)
  }
  const iterator = inner.stream()
  try {
    for (;;) {
      const step = await iterator.next()
      if (step.done) return
      const chunk: StreamChunk = step.value
      const record = chunk.type === 'done' ? (chunk.metadata?.chatrail as DecisionRecord | undefined) : undefined
      yield record ? memory.withRecord(await signer.sign(record), chunk) : chunk
    }
  } finally {
    await iterator.return?.()
  }
}
