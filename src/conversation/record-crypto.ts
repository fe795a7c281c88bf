/**
 * HMAC-SHA-256 over Web Crypto (browsers and Node alike) for signed decision records. Loaded only
 * by sessions with a `recordKey` (record-signing.ts imports it lazily), so the core entry does not
 * carry it.
 */

/** A session's `recordKey`: a secret of at least 16 bytes (string or bytes), or an HMAC `CryptoKey`. */
export type RecordKey = string | Uint8Array | CryptoKey

export interface RecordCrypto {
  /** The base64url HMAC of `text`. */
  sign: (text: string) => Promise<string>
  verify: (text: string, sig: string) => Promise<boolean>
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
