/**
 * A random UUID v4. Web Crypto's `randomUUID` where the runtime has it (Node, and browsers in
 * secure contexts): Node's draws from a cached entropy pool, ~0.1 µs a call. A page served over
 * plain http from another host (e.g. `chatrail serve --host 0.0.0.0 --token …`) has no
 * `randomUUID`, only `getRandomValues`: there the bytes come from a pool refilled 4 KB at a time,
 * because one `getRandomValues` call per id costs several µs (issue 20: it was half of a
 * controller turn).
 */

const POOL_BYTES = 4096
let pool: Uint8Array | undefined
let offset = POOL_BYTES

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

function fromPool(): string {
  if (offset + 16 > POOL_BYTES) {
    pool ??= new Uint8Array(POOL_BYTES)
    globalThis.crypto.getRandomValues(pool)
    offset = 0
  }
  const bytes = pool as Uint8Array
  const at = offset
  offset += 16
  const hex = (index: number): string => HEX[bytes[at + index] as number] as string
  const version = HEX[((bytes[at + 6] as number) & 0x0f) | 0x40] as string
  const variant = HEX[((bytes[at + 8] as number) & 0x3f) | 0x80] as string
  return `${hex(0)}${hex(1)}${hex(2)}${hex(3)}-${hex(4)}${hex(5)}-${version}${hex(7)}-${variant}${hex(9)}-${hex(10)}${hex(11)}${hex(12)}${hex(13)}${hex(14)}${hex(15)}`
}

export function randomUUID(): string {
  const crypto = globalThis.crypto
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : fromPool()
}
