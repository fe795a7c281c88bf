/**
 * The message extras chunk of `chatrail/react`: a reply's tool call cards (with the approval
 * buttons), its "Thinking" disclosure and its cited sources. Loaded from the message UI chunk the
 * first time a message has any of them (message-extras.tsx): a chat whose agent never calls a
 * tool, reasons aloud or cites never downloads it. It imports React and the core only; the app's
 * labels come in through `ExtrasLabels` (extras-context.ts).
 */
export { ToolCallList } from './tool-call-list.js'
export { ReasoningSection } from './reasoning-section.js'
export { SourceList } from './source-list.js'
export { ExtrasLabels } from './extras-context.js'
