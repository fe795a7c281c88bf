import { Decompress } from 'fzstd'
import { openRegularFile } from './regular-file.js'

/**
 * Streams a file's bytes, decompressed when it is zstd (`.jsonl.zst` rollouts), to a synchronous
 * sink, chunk by chunk, in bounded memory. The sink sees decompressed output as it is produced (one
 * zstd block at a time, ≤ 128 KiB), so a small file that decodes to gigabytes never accumulates:
 * the sink decides what to keep, and can stop the stream by returning `false`. `maxBytes` caps the
 * bytes delivered (a decompression bomb costs at most that much time).
 *
 * The file is read through one `FileHandle`, closed before the promise settles, so a caller that
 * counts open descriptors (the monitor's bound) counts them truly. Opening errors (ENOENT, EACCES)
 * reject; a corrupt or truncated zstd stream resolves with `error` and whatever decoded before it.
 */

export interface FileStreamOptions {
  compressed: boolean
  /** Stop after delivering this many bytes (default: no cap). */
  maxBytes?: number
  /** Read size (default 64 KiB). */
  chunkBytes?: number
}

export interface FileStreamResult {
  /** Bytes delivered to the sink. */
  bytes: number
  /** How the stream ended: its end, the sink's `false`, or the `maxBytes` cap. */
  ended: 'end' | 'stopped' | 'capped'
  /** A zstd stream that could not be decoded to its end. */
  error?: unknown
}

/** Returns `false` to stop reading. */
export type FileStreamSink = (chunk: Uint8Array) => boolean | void

const STOP = Symbol('stop')

export async function streamFile(path: string, options: FileStreamOptions, sink: FileStreamSink): Promise<FileStreamResult> {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY
  let bytes = 0
  let ended: FileStreamResult['ended'] = 'end'
  const deliver = (data: Uint8Array): void => {
    if (ended !== 'end') throw STOP
    let chunk = data
    if (bytes + chunk.length > maxBytes) {
      chunk = chunk.subarray(0, maxBytes - bytes)
      ended = 'capped'
    }
    bytes += chunk.length
    if (chunk.length > 0 && sink(chunk) === false && ended === 'end') ended = 'stopped'
    if (ended !== 'end') throw STOP
  }
  const handle = await openRegularFile(path)
  try {
    const decoder = options.compressed ? new Decompress((data) => deliver(data)) : undefined
    const size = options.chunkBytes ?? 64 * 1024
    let buffer = Buffer.allocUnsafe(size)
    let position = 0
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
        if (bytesRead === 0) break
        position += bytesRead
        if (decoder) {
          decoder.push(buffer.subarray(0, bytesRead))
          // fzstd may keep a reference to input it has not decoded yet: never overwrite it.
          buffer = Buffer.allocUnsafe(size)
        } else {
          // The sink copies what it keeps; the buffer is reused.
          deliver(buffer.subarray(0, bytesRead))
        }
      }
      decoder?.push(new Uint8Array(0), true)
    } catch (error) {
      if (error !== STOP) return { bytes, ended, error }
    }
    return { bytes, ended }
  } finally {
    await handle.close()
  }
}
