import type { StreamChunk } from '../contract/stream.js'

/**
 * An adapter's chunk that claims to carry a component, as the plain text it also is. A component
 * in an answer is the app's word (a route's, or the host's); an agent proposes one only through a
 * declared tool, whose path marks it `agent`. So whatever an adapter streams in
 * `metadata.component` (a model or a CLI could print anything) shows as its text and nothing more.
 */
export function asPlainText(chunk: StreamChunk): StreamChunk {
  const { metadata: carried, ...fields } = chunk
  const { component: _dropped, ...metadata } = carried ?? {}
  return Object.keys(metadata).length === 0 ? fields : { ...fields, metadata }
}
