import { sourcesOf } from '../../src/view/reply-sources.js'
import { loadComponentRules } from '../../src/view/component-rules.js'
import { humanizeEvent } from '../../src/view/event-routes.js'
import { lazyChunk } from './lazy-chunk.js'
import type { MessageUIKit } from './message-ui-context.js'

/** The entry's helpers the message UI calls too, handed over by `<MessageUIPart>` (message-ui-context.ts says why). */
export const messageUIKit: MessageUIKit = { humanizeEvent, lazyChunk, loadComponentRules, sourcesOf }
