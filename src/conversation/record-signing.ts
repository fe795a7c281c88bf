import type { AdapterRequest } from '../contract/adapter.js'
import { historyOf } from '../contract/history-view.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { doneWithRecord, readDecisionRecord } from './decision-record.js'
import type * as RecordCryptoModule from './record-crypto.js'
import type { OnVerdicts, RecordCrypto, RecordKey, RecordSigner, SignerMemory, Verdicts } from './record-crypto.js'

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

export type { OnVerdicts, RecordKey, RecordSigner, SignerMemory, Verdicts }



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


// Signing, verifying and the signed stream are loaded on first use, with the HMAC code: only
// sessions with a key pay for them (the core entry carries the memory and its synchronous checks).
// The promise is kept: an `import()` of a module already loaded still costs a module resolution, on
// every turn of a signed session.
let loaded: Promise<typeof RecordCryptoModule> | undefined
const signing = (): Promise<typeof RecordCryptoModule> => (loaded ??= import('./record-crypto.js'))

const memories = new WeakMap<RecordSigner, SignerMemory>()
const memory = (signer: RecordSigner): SignerMemory => memories.get(signer) as SignerMemory

export function createRecordSigner(key: RecordKey): RecordSigner {
  let crypto: Promise<RecordCrypto> | undefined
  const state: SignerMemory = {
    known: new Set<string>(),
    failed: new Set<string>(),
    checked: new WeakMap(),
    identity: (record) => `${canonical(record)}\u0000${record.sig ?? ''}`,
    canonical: (record) => canonical(record),
    hmac: () => (crypto ??= signing().then((module) => module.createRecordCrypto(key))),
    read: readDecisionRecord,
    withRecord: doneWithRecord,
  }
  const signer: RecordSigner = {
    sign: async (record) => (await signing()).signRecord(state, record),
    verify: async (history) => (await signing()).verifyRecords(state, history),
    trusted: (record) => state.known.has(state.identity(record)),
    vouch(messages) {
      state.checked = new WeakMap() // counts taken before may include records now vouched for
      for (const message of messages) {
        const record = message.role === 'assistant' ? readDecisionRecord(message) : undefined
        if (record) state.known.add(state.identity(record))
      }
    },
  }
  memories.set(signer, state)
  return signer
}

/**
 * A turn's source with signing around it: history is verified before the turn starts (so the
 * turn's reconciliation sees the verdicts), and the `done` record is signed on its way out.
 */
export function signedTurnSource(signer: RecordSigner, request: AdapterRequest, inner: StreamSource, onVerdicts: OnVerdicts): StreamSource {
  let outer: AsyncIterableIterator<StreamChunk> | undefined
  return {
    stream: () =>
      (outer ??= (async function* () {
        yield* (await signing()).signedStream(signer, memory(signer), historyOf(request), inner, onVerdicts)
      })()),
    abort: () => inner.abort(),
  }
}
