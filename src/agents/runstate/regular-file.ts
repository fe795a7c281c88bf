import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { ChatrailError, markErrorClass } from '../../contract/errors.js'

/**
 * Opening only regular files. A FIFO, a socket or a device at a transcript, registry, spool or
 * rollout path would block a plain `open()` or `read()` forever (a FIFO with no writer) or stream
 * without end (a device): every reader opens through here instead, non-blocking, checks with
 * `fstat` on the opened descriptor (no check-then-open race), and refuses anything else.
 * `O_NONBLOCK` has no effect on a regular file, so reads stay ordinary.
 */

export class NotARegularFileError extends ChatrailError {
  readonly path: string
  readonly kind: string

  constructor(path: string, kind: string) {
    super({
      code: 'NOT_A_REGULAR_FILE',
      message: `${path} is a ${kind}, not a regular file; chatrail reads transcripts, rollouts, registries and live-signal files only from regular files.`,
      hint: 'Pass the path of a regular file (copy the data into one if it comes from a pipe).',
    })
    this.name = 'NotARegularFileError'
    this.path = path
    this.kind = kind
  }

  static override isInstance = markErrorClass(NotARegularFileError, 'NotARegularFileError')
}

export interface OpenRegularFileOptions {
  /** Refuse a symbolic link at `path` itself (`O_NOFOLLOW`): for files in chatrail's own private dirs. */
  noFollow?: boolean
}

/**
 * Opens `path` read-only unless it is a FIFO, socket or device (`NotARegularFileError`); fs errors
 * pass through, and a directory opens and fails on its first read with `EISDIR`, as before.
 */
export async function openRegularFile(path: string, options: OpenRegularFileOptions = {}): Promise<FileHandle> {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.noFollow === true ? (constants.O_NOFOLLOW ?? 0) : 0)
  const handle = await open(path, flags)
  try {
    const info = await handle.stat()
    // A directory keeps the read's own EISDIR (callers document that I/O errors pass through).
    if (!info.isFile() && !info.isDirectory()) throw new NotARegularFileError(path, kindOf(info))
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** The whole file as text, if it is a regular file no larger than `maxBytes`. */
export async function readRegularFile(path: string, options: OpenRegularFileOptions & { maxBytes?: number } = {}): Promise<{ text: string; mtimeMs: number }> {
  const handle = await openRegularFile(path, options)
  try {
    const info = await handle.stat()
    const limit = options.maxBytes ?? 16 * 1024 * 1024
    if (info.size > limit) throw new ChatrailError({ code: 'FILE_TOO_LARGE', message: `${path} is ${info.size} bytes, over the ${limit}-byte limit for this kind of file.`, hint: 'Check that the path names the file you meant.' })
    const buffer = Buffer.alloc(Math.min(info.size, limit))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), mtimeMs: info.mtimeMs }
  } finally {
    await handle.close()
  }
}

function kindOf(info: { isFIFO: () => boolean; isSocket: () => boolean; isCharacterDevice: () => boolean; isBlockDevice: () => boolean }): string {
  if (info.isFIFO()) return 'FIFO (named pipe)'
  if (info.isSocket()) return 'socket'
  if (info.isCharacterDevice()) return 'character device'
  if (info.isBlockDevice()) return 'block device'
  return 'special file'
}
