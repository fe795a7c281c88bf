/**
 * Everything a controller does with a tool call once one exists: a `tool_call` chunk (authorize,
 * record, execute or wait for confirmation), a provider's result, an app's proposal, an approval or
 * a denial. A chat that never sees a tool call never needs it, so the controller loads this module
 * on the first tool call or proposal (tool-loader.ts) instead of shipping it in every app's initial
 * load (issue 32: ≈7 kB minified, a fifth of chatrail/controller).
 */
export { handleToolCallChunk, settleProviderToolCall } from './tool-calls.js'
export { proposeToolCall, settleConfirmation } from './confirmation.js'
