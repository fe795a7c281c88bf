export type { AdapterCapabilities, AdapterContext, AdapterFactory, AdapterRequest } from './adapter.js'
export type {
  AgentChat,
  AgentCursor,
  AgentKind,
  AgentMessage,
  AgentMessageKind,
  AgentTool,
  AgentToolStatus,
  AgentUsage,
  NormalizedStatus,
  RunState,
} from './agent-chat.js'
export type { AgentSnapshot } from './agent-snapshot.js'
export type { ChatConfig, ChatController, ChatReturn, ChatState, EditOptions, SkillDefinition } from './chat.js'
export type {
  Dialog,
  DialogAnswer,
  DialogAnswerInput,
  DialogAnswerResult,
  DialogOption,
  DialogOutcome,
  DialogQuestion,
} from './dialog.js'
export { ChatrailError, markErrorClass } from './errors.js'
export type { ChatrailErrorOptions } from './errors.js'
export type {
  ChatMemory,
  MemoryOperationOptions,
  RetrievedDocument,
  Retriever,
  RetrieverRequest,
} from './memory.js'
export type { ComponentCatalog, ComponentFallback, ComponentPart, ComponentProvenance } from './component-part.js'
export { componentChunk, componentOfChunk, isComponentPart } from './component-chunk.js'
export type {
  AudioPart,
  ContentPart,
  DataRegion,
  FilePart,
  ImagePart,
  MaybePromise,
  MemoryRecord,
  Message,
  MessageRole,
  MessageStatus,
  PartKind,
  TextPart,
  ToolCall,
  ToolCallStatus,
  VideoPart,
} from './message.js'
export { historyOf } from './history-view.js'
export type { HistoryView } from './history-view.js'
export { isLiveAgentAdapter } from './live-agent-adapter.js'
export type { AgentRunStateSource, LiveAgentAdapter } from './live-agent-adapter.js'
export type { AgentEvent, Observer } from './observer.js'
export { audioPart, filePart, filterParts, imagePart, normalizeContent, partsToText, textPart, videoPart } from './parts.js'
export {
  contentPartSchema,
  memoryRecordSchema,
  messageSchema,
  storedMessageSchema,
  streamChunkSchema,
  streamToolCallPayloadSchema,
  tokenUsageSchema,
  toolCallSchema,
} from './schemas.js'
export type {
  StreamChunk,
  StreamChunkType,
  StreamSource,
  StreamStatus,
  StreamToolCallPayload,
  TokenUsage,
} from './stream.js'
export type {
  ArgsValidationError,
  ArgsValidationResult,
  ArgsValidator,
  JSONSchema7,
  ToolAuthorizationContext,
  ToolAuthorizationDecision,
  ToolAuthorizationPhase,
  ToolAuthorizer,
  ToolCallHandlerContext,
  ToolDefinition,
  ToolExecutionContext,
} from './tool.js'
// Action confirmation and capability policy (docs/actions.md).
export type {
  ActionConfirmation,
  ActionConfirmationStatus,
  ActionPolicyDecision,
  ActionPolicyPhase,
  ActionPolicyReason,
  ActionPolicyTrace,
  ConfirmableAction,
  ConfirmationChange,
  ConfirmationClaim,
  ConfirmationEvent,
  ConfirmationLedger,
  ConfirmationOutcome,
  TrustedActionContext,
} from './action-confirmation.js'
