import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'

/**
 * Every chunk of a source's stream, failing the test (never hanging it) when the stream has not
 * ended within `limitMs`: for the suites whose point is that a malformed or silent stream ends.
 */
export async function drainWithin(source: StreamSource, limitMs: number): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  const iterator = source.stream()
  const deadline = Date.now() + limitMs
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))
    })
    const step = await Promise.race([iterator.next(), late]).finally(() => clearTimeout(timer))
    if (step === 'late') throw new Error(`the stream did not end within ${limitMs} ms`)
    if (step.done) return chunks
    chunks.push(step.value)
  }
}
