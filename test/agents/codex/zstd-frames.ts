/**
 * A minimal zstd encoder for tests: raw (stored) and RLE blocks only, which the format allows in
 * any frame. Enough to make a real `.jsonl.zst` from any bytes, and a decompression bomb (RLE
 * blocks: 4 bytes each that decode to 128 KiB) without a zstd binary on the machine.
 */

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd]
/** Frame header descriptor 0 (no content size, no checksum, no dictionary), window 2^17 bytes. */
const FRAME_HEADER = [0x00, 0x38]
const MAX_BLOCK = 128 * 1024

export type ZstdBlock = { raw: Uint8Array } | { rle: number; size: number }

function blockHeader(type: 0 | 1, size: number, last: boolean): number[] {
  const value = (size << 3) | (type << 1) | (last ? 1 : 0)
  return [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]
}

/** A zstd frame of the given blocks (raw blocks over 128 KiB are split). */
export function zstdFrame(blocks: readonly ZstdBlock[]): Buffer {
  const split: ZstdBlock[] = []
  for (const block of blocks) {
    if ('raw' in block) {
      for (let at = 0; at < block.raw.length || (at === 0 && block.raw.length === 0); at += MAX_BLOCK) {
        split.push({ raw: block.raw.subarray(at, at + MAX_BLOCK) })
        if (block.raw.length === 0) break
      }
    } else {
      for (let left = block.size; left > 0; left -= MAX_BLOCK) split.push({ rle: block.rle, size: Math.min(MAX_BLOCK, left) })
    }
  }
  const parts: Buffer[] = [Buffer.from([...MAGIC, ...FRAME_HEADER])]
  split.forEach((block, index) => {
    const last = index === split.length - 1
    if ('raw' in block) parts.push(Buffer.from(blockHeader(0, block.raw.length, last)), Buffer.from(block.raw))
    else parts.push(Buffer.from([...blockHeader(1, block.size, last), block.rle]))
  })
  if (split.length === 0) parts.push(Buffer.from(blockHeader(0, 0, true)))
  return Buffer.concat(parts)
}

/** `bytes` as a `.zst` file's content (stored blocks). */
export function zstdStore(bytes: Uint8Array | string): Buffer {
  return zstdFrame([{ raw: typeof bytes === 'string' ? Buffer.from(bytes) : bytes }])
}
