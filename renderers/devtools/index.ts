/**
 * chatrail/devtools: `<ChatDevtools>`, the browser side of the devtools (the conversations of a
 * store, each turn's route, state and decision record, the state diagram, what-if and export as a
 * test), over the JSON API of `createDevtoolsHandler`. Its own entry: chatrail/react never loads
 * it, and the state diagram (with its layout library) is a lazy chunk of its own.
 */
export { ChatDevtools } from './chat-devtools.js'
export type { ChatDevtoolsProps } from './chat-devtools.js'
export { createDevtoolsClient, DevtoolsRequestError, listQueryString } from './devtools-client.js'
export type { DevtoolsClient, DevtoolsClientOptions, ExportedFile } from './devtools-client.js'
export { watchConversations } from './live-events.js'
export type { LiveStatus, WatchOptions } from './live-events.js'
