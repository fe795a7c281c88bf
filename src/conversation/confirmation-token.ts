/**
 * Confirmation tokens: 128 bits from Web Crypto's `getRandomValues` (browsers and Node), base64url
 * after a `ct-` prefix, so a token is identifier-safe (it travels in URLs and request bodies) and
 * cannot be guessed from another one: unlike AgentsKit Chat's `confirm-<seq>-<time>`, nothing in
 * it is a counter or a clock.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

export const TOKEN_PATTERN = /^ct-[A-Za-z0-9_-]{22}$/

/** A new unguessable token (`ct-` + 22 base64url characters). */
export function createConfirmationToken(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  let bits = 0
  let value = 0
  let out = 'ct-'
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 6) {
      bits -= 6
      out += ALPHABET[(value >> bits) & 63]
    }
    value &= (1 << bits) - 1
  }
  if (bits > 0) out += ALPHABET[(value << (6 - bits)) & 63]
  return out
}
