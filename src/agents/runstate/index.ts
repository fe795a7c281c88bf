// The shared reading machinery. The agent vocabulary (AgentChat, Dialog, AgentSnapshot,
// LiveAgentAdapter) is in src/contract: the conversation layer uses it without importing agents.
export { TranscriptGoneError } from './errors.js'
export { JsonlLineTooLongError } from './jsonl-line-too-long-error.js'
export { NotARegularFileError } from './regular-file.js'
export { createJsonlTail, DEFAULT_MAX_LINE_BYTES } from './jsonl-tail.js'
export type {
  JsonlCursor,
  JsonlOverCapLine,
  JsonlReadHandlers,
  JsonlReadResult,
  JsonlRecord,
  JsonlResetReason,
  JsonlTail,
  JsonlTailOptions,
} from './jsonl-tail.js'
