// chatrail/server: a chatrail workflow behind one Web-standard handler that the AI SDK's `useChat`
// talks to unchanged (the UI message stream), over a ConversationStore. No controller here.
export { createChatHandler } from './create-chat-handler.js'
export type { Authenticate, ChatHandler, ChatHandlerLimits, ChatHandlerOptions } from './create-chat-handler.js'
export { toNodeHandler } from './node-handler.js'
export type { FetchHandler } from './node-handler.js'
export { createHealthHandlers } from './health.js'
export type { HealthHandlers, HealthOptions } from './health.js'
export type { CorsOptions } from './cors.js'
export type { BeforeTurn, TurnAttempt, TurnRefusal } from './before-turn.js'
export { UI_MESSAGE_STREAM_HEADERS } from '../protocol/ui-parts.js'
export type { ChatrailPartData, UiPart } from '../protocol/ui-parts.js'
export type { ChatrailMessageMetadata, UiMessage, UiMessagePart, UiToolPart } from './ui-messages.js'
export type { StoredTool } from './tool-ledger.js'
