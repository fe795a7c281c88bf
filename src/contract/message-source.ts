import type { Message } from './message.js'
import type { StreamChunk } from './stream.js'

/**
 * A source the answer cites (an AI SDK `source-url` part, a search hit): where it is and what to
 * call it. chatrail's addition to upstream's shapes.
 */
export interface MessageSource {
  url: string
  title?: string
}

/** The most sources one reply keeps; the controller drops any after these. */
export const MAX_SOURCES = 100
const MAX_URL = 2048
const MAX_TITLE = 512

/**
 * How a source travels in a stream: an empty `text` chunk whose `metadata.source` is the source.
 * Upstream's flat chunk interface stays as it is: a consumer that knows no sources sees an empty
 * text chunk and ignores it; chatrail's controller gathers them into the reply's
 * `metadata.sources`, in arrival order.
 */
export function sourceChunk(source: MessageSource): StreamChunk {
  return Object.freeze({ type: 'text', content: '', metadata: Object.freeze({ source: Object.freeze({ ...source }) }) })
}

/** A well-formed source (untrusted input: chunks and stored history): its url and title, nothing else. */
export function asMessageSource(value: unknown): MessageSource | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { url, title } = value as Record<string, unknown>
  if (typeof url !== 'string' || url === '' || url.length > MAX_URL) return undefined
  if (title !== undefined && (typeof title !== 'string' || title.length > MAX_TITLE)) return undefined
  return title === undefined || title === '' ? { url } : { url, title }
}

/** The source a chunk carries, when it carries a well-formed one. */
export function sourceOfChunk(chunk: StreamChunk): MessageSource | undefined {
  return chunk.type === 'text' ? asMessageSource(chunk.metadata?.source) : undefined
}

/**
 * A message's cited sources (`metadata.sources`), the well-formed ones only, first of each url
 * kept. Whether a url is safe to link to is the renderer's question (`isSafeUrl`).
 */
export function sourcesOf(message: Pick<Message, 'metadata'>): MessageSource[] {
  const listed = message.metadata?.sources
  if (!Array.isArray(listed)) return []
  const seen = new Set<string>()
  const sources: MessageSource[] = []
  for (const entry of listed) {
    const source = asMessageSource(entry)
    if (source === undefined || seen.has(source.url)) continue
    seen.add(source.url)
    sources.push(source)
  }
  return sources
}
