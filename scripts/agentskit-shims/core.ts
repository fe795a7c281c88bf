// `@agentskit/core` under chatrail's names, for AgentsKit Chat's define-chat suite
// (scripts/agentskit-chat-suite.ts). Renames only: no behaviour of its own.
export { ChatrailConfigError as ConfigError } from '../../src/index.js'
export { createChatController } from '../../src/controller/index.js'
export type { AdapterFactory, AdapterRequest, StreamChunk } from '../../src/index.js'
