/**
 * Keeps the last bytes a child wrote to stderr, so a failure can say why without holding an
 * unbounded log. Appends are O(chunk); only the newest `maxBytes` survive.
 */

export interface StderrTail {
  append: (chunk: Buffer | string) => void
  /** The kept tail as text: whole lines only (a cut first line is dropped), trimmed. */
  text: () => string
}

export const DEFAULT_STDERR_TAIL_BYTES = 4096

export function createStderrTail(maxBytes = DEFAULT_STDERR_TAIL_BYTES): StderrTail {
  let kept = Buffer.alloc(0)
  let cut = false
  return {
    append(chunk) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      const joined = Buffer.concat([kept, bytes])
      if (joined.length > maxBytes) {
        kept = joined.subarray(joined.length - maxBytes)
        cut = true
      } else {
        kept = joined
      }
    },
    text() {
      let text = kept.toString('utf8')
      if (cut) {
        // The first line was cut mid-way (maybe mid-character): keep whole lines only.
        const newline = text.indexOf('\n')
        text = newline === -1 ? text.replace(/^\uFFFD+/, '') : text.slice(newline + 1)
      }
      return text.trim()
    },
  }
}
