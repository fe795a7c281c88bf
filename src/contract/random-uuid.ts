/**
 * A random UUID v4 from Web Crypto's `getRandomValues`, which every browser offers on any page.
 * `crypto.randomUUID` exists only in secure contexts (https, localhost), so a page served over
 * plain http from another host would fail on it (e.g. `chatrail serve --host 0.0.0.0 --token …`).
 */
export function randomUUID(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
