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
export type { Dialog, DialogAnswer, DialogOption, DialogOutcome, DialogQuestion } from './dialog.js'
export { TranscriptGoneError } from './errors.js'
export { JsonlLineTooLongError } from './jsonl-line-too-long-error.js'
export { createJsonlTail, DEFAULT_MAX_LINE_BYTES } from './jsonl-tail.js'
export type {
  JsonlCursor,
  JsonlReadHandlers,
  JsonlReadResult,
  JsonlRecord,
  JsonlResetReason,
  JsonlTail,
  JsonlTailOptions,
} from './jsonl-tail.js'
export { isLiveAgentAdapter } from './live.js'
export type {
  AgentRunStateSource,
  AgentSnapshot,
  DialogAnswerInput,
  DialogAnswerResult,
  LiveAgentAdapter,
} from './live.js'
