import type { StreamChunk, StreamToolCallPayload } from './stream.js'
import type { ToolDefinition } from './tool.js'

/**
 * The one way an agent puts a component in an answer: a tool the definition declares for it
 * (`registry.asTool()` in chatrail/components, listed in `chat.tools`). The session finds it by
 * this marker and turns each call of it into the chunk the marker makes: a component part with
 * `provenance: 'agent'`, checked by the registry, or plain text naming why it was refused.
 */
export const COMPONENT_TOOL: unique symbol = Symbol.for('chatrail.componentTool') as never

export interface ComponentToolDefinition extends ToolDefinition {
  /** The chunk a call of this tool stands for (never throws; an invalid call is inert text). */
  readonly [COMPONENT_TOOL]: (call: StreamToolCallPayload) => StreamChunk
}

/** The definition's component tool, if its chat declares one. */
export function componentToolOf(tools: readonly ToolDefinition[] | undefined): ComponentToolDefinition | undefined {
  return tools?.find((tool): tool is ComponentToolDefinition => typeof (tool as Partial<ComponentToolDefinition>)[COMPONENT_TOOL] === 'function')
}
