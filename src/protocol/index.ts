// The wire codec shared by chatrail/server and chatrail/client: AI SDK UI message stream parts ⇄
// chatrail stream chunks, and the `data-chatrail` snapshot part. Browser-safe (no node: imports).
export { UI_MESSAGE_STREAM_HEADERS } from './ui-parts.js'
export type { ChatrailPartData, FinishReason, UiPart, UiPartType } from './ui-parts.js'
export { createUiPartEncoder } from './encode-parts.js'
export type { UiPartEncoder, UiPartEncoderOptions } from './encode-parts.js'
export { uiPartToChunks } from './decode-parts.js'
export { encodeSseEvent, SSE_DONE } from './sse.js'
export { readUiMessageStream, STREAM_ENDED_EARLY } from './read-ui-message-stream.js'
export { chatRequestSchema } from './chat-request.js'
export type { ChatRequest, ChatRequestMessage } from './chat-request.js'
