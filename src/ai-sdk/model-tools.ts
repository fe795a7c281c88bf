import { jsonSchema, tool, type ToolSet } from 'ai'
import type { ToolDefinition } from '../contract/tool.js'

/**
 * The request's tools (`context.tools`: the chat config's tools, and `chatrail_transition` when
 * agent transitions are on) as AI SDK tools **without `execute`**: the model only proposes calls,
 * `streamText` ends its step at them, and the controller runs each tool once (a tool with an
 * `execute` here would run twice, once per side). Pure.
 */
export function toModelTools(tools: readonly ToolDefinition[] | undefined): ToolSet | undefined {
  if (!tools || tools.length === 0) return undefined
  const set: ToolSet = {}
  for (const definition of tools) {
    set[definition.name] = tool({
      ...(definition.description === undefined ? {} : { description: definition.description }),
      inputSchema: jsonSchema(definition.schema ?? { type: 'object', properties: {}, additionalProperties: true }),
    })
  }
  return set
}
