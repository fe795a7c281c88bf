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
export { isLiveAgentAdapter } from './live.js'
export type {
  AgentRunStateSource,
  AgentSnapshot,
  DialogAnswerInput,
  DialogAnswerResult,
  LiveAgentAdapter,
} from './live.js'
