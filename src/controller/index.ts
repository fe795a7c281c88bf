// The controller layer: AgentsKit's chat lifecycle over the shapes in src/contract.
export { createChatController, STOPPED_TOOL_CALL_ERROR } from './create-chat-controller.js'
export type { ChatControllerOptions, ChatrailController, SendOptions } from './chatrail-controller.js'
export { buildMessage } from './build-message.js'
export type { BuildMessageParams } from './build-message.js'
// Cited sources: the chunk an adapter yields and the reader of what the controller gathered.
export { MAX_SOURCES, sourceChunk, sourcesOf } from '../contract/message-source.js'
export type { MessageSource } from '../contract/message-source.js'
export { safeParseArgs } from './safe-parse-args.js'
export { createInMemoryMemory } from './in-memory-memory.js'
export { deserializeMessages, serializeMessages, validateMemoryRecord } from './memory-record.js'
export { formatRetrievedDocuments, SYSTEM_PROMPT_MESSAGE_ID, RETRIEVED_DOCUMENTS_MESSAGE_ID } from './request-messages.js'
export { chatReducer, initialChatState } from './chat-reducer.js'
export type { ChatAction } from './chat-reducer.js'
export { planEdit, planRegenerate, planRetry } from './history-edits.js'
export { getLifecycleTargets } from './lifecycle-targets.js'
export type { LifecycleTargets } from './lifecycle-targets.js'
export type { BranchPosition } from './message-branches.js'
export type { EditPlan, RerunPlan } from './history-edits.js'
export { defaultClock, defaultIds } from './ids.js'
export type { Clock, IdFactory } from './ids.js'
export {
  AdapterError,
  ConfigError,
  ErrorCodes,
  MemoryError,
  RuntimeError,
  SkillError,
  ToolError,
} from './errors.js'
export type { ErrorCode } from './errors.js'
