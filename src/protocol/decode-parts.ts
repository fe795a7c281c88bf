import { componentChunk, isComponentPart } from '../contract/component-chunk.js'
import { asMessageSource, sourceChunk } from '../contract/message-source.js'
import type { StreamChunk } from '../contract/stream.js'
import type { UiPart } from './ui-parts.js'

/**
 * UI message stream parts → chatrail stream chunks. Pure and stateless: a delta is a chunk, an
 * `error` part an `error` chunk, `finish` the `done` chunk; `start`, the `*-start`/`*-end` framing
 * and `data-chatrail` (read it with `chatrailDataOf`) carry no chunk.
 */
export function uiPartToChunks(part: UiPart): StreamChunk[] {
  switch (part.type) {
    case 'text-delta':
      return part.delta === '' ? [] : [{ type: 'text', content: part.delta }]
    case 'reasoning-delta':
      return part.delta === '' ? [] : [{ type: 'reasoning', content: part.delta }]
    case 'error':
      return [{ type: 'error', content: part.errorText }]
    case 'finish':
      return [{ type: 'done' }]
    case 'source-url': {
      // untrusted like any part: only a well-formed source becomes the controller's source chunk
      const source = asMessageSource({ url: part.url, ...(part.title === undefined ? {} : { title: part.title }) })
      return source ? [sourceChunk(source)] : []
    }
    case 'data-component':
      // from the server: checked again all the same (a proxy or a hostile server could send anything)
      return isComponentPart(part.data) ? [componentChunk(part.data)] : []
    default:
      return []
  }
}
