import type { AdapterRequest } from '../contract/adapter.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { doneWithRecord, readDecisionRecord, type DecisionRecord } from './decision-record.js'
import type { RecordCrypto, RecordKey } from './record-crypto.js'

/**
 * Signed decision records. A record on a message the client sends back is the client's word: an
 * edited `assign` would set the session's context. With a `recordKey`, the session signs each
 * record it emits (HMAC-SHA-256 via Web Crypto, so browsers and Node alike) and adopts a record
 * from history only when its signature verifies (or the host vouched for it: `sync(…, { trusted })`
 * for history read from its own store). An unsigned or forged record is ignored: that turn is
 * re-decided from its text (rederive-turn.ts), or undecided when no synchronous route answers it,
 * and the next turn's trace counts both (`untrustedRecords`, `rederivedTurns`).
 *
 * Web Crypto is asynchronous and reconciliation is not, so verification runs ahead of a turn
 * (the wrapped stream awaits it before the turn reconciles) and its results are remembered; the
 * timeline's synchronous `trusted(record)` only reads that memory.
 */

export type { RecordKey }

/** What verifying a history found: records that failed (unsigned or forged) and records newly verified. */
export interface Verdicts {
  readonly untrusted: number
  readonly verified: number
}

export interface RecordSigner {
  /** The record with its `sig`, remembered as trusted. */
  sign: (record: DecisionRecord) => Promise<DecisionRecord>
  /** Verifies every record in `messages` not yet known: how many failed (unsigned or invalid) and how many verified anew. */
  verify: (messages: readonly Message[]) => Promise<Verdicts>
  /** Synchronous: was this exact record signed here, verified, or vouched for? */
  trusted: (record: DecisionRecord) => boolean
  /** The host vouches for these messages' records (history from its own store). */
  vouch: (messages: readonly Message[]) => void
}

/**
 * JSON with object keys sorted at every depth: the bytes a signature covers (key order in transit
 * does not matter). The record's own `sig` is left out; a `sig` key deeper down (in `assign`) is signed.
 */
function canonical(value: unknown, record = true): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, false)).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((key) => !(record && key === 'sig') && (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key], false)}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value)
}

/** Checks the key now, so a bad one is a config error at session creation, not a failed turn. */
export function isRecordKey(key: unknown): key is RecordKey {
  if (typeof key === 'string') return key.length >= 16
  if (key instanceof Uint8Array) return key.byteLength >= 16
  return typeof key === 'object' && key !== null && (key as { type?: unknown }).type === 'secret'
}

export function createRecordSigner(key: RecordKey): RecordSigner {
  // The HMAC code is loaded on first use: only sessions with a key pay for it.
  let crypto: Promise<RecordCrypto> | undefined
  const hmac = (): Promise<RecordCrypto> => (crypto ??= import('./record-crypto.js').then((module) => module.createRecordCrypto(key)))
  // canonical text + signature of every record known good; bounded by the history the session saw.
  const known = new Set<string>()
  const failed = new Set<string>()
  const identity = (record: DecisionRecord): string => `${canonical(record)}\u0000${record.sig ?? ''}`

  return {
    async sign(record) {
      const unsigned = { ...record }
      delete unsigned.sig
      const signed = Object.freeze({ ...unsigned, sig: await (await hmac()).sign(canonical(unsigned)) })
      known.add(identity(signed))
      return signed
    },
    async verify(messages) {
      let untrusted = 0
      let verified = 0
      for (const message of messages) {
        if (message.role !== 'assistant') continue
        const record = readDecisionRecord(message)
        if (!record) continue
        const id = identity(record)
        if (known.has(id)) continue
        const valid = record.sig !== undefined && !failed.has(id) && (await (await hmac()).verify(canonical(record), record.sig))
        if (valid) {
          known.add(id)
          verified += 1
        } else {
          failed.add(id)
          untrusted += 1
        }
      }
      return { untrusted, verified }
    },
    trusted: (record) => known.has(identity(record)),
    vouch(messages) {
      for (const message of messages) {
        const record = message.role === 'assistant' ? readDecisionRecord(message) : undefined
        if (record) known.add(identity(record))
      }
    },
  }
}

/**
 * A turn's source with signing around it: history is verified before the turn starts (so the
 * turn's reconciliation sees the verdicts), and the `done` record is signed on its way out.
 */
export function signedTurnSource(signer: RecordSigner, request: AdapterRequest, inner: StreamSource, onVerdicts: (verdicts: Verdicts) => void): StreamSource {
  let outer: AsyncIterableIterator<StreamChunk> | undefined
  return {
    stream: () =>
      (outer ??= (async function* () {
        const verdicts = await signer.verify(request.messages)
        if (verdicts.untrusted > 0 || verdicts.verified > 0) onVerdicts(verdicts)
        const iterator = inner.stream()
        try {
          for (;;) {
            const step = await iterator.next()
            if (step.done) return
            const chunk: StreamChunk = step.value
            const record = chunk.type === 'done' ? (chunk.metadata?.chatrail as DecisionRecord | undefined) : undefined
            yield record ? doneWithRecord(await signer.sign(record), chunk) : chunk
          }
        } finally {
          await iterator.return?.()
        }
      })()),
    abort: () => inner.abort(),
  }
}
