import type { StreamChunk } from '../contract/stream.js'
import type { UiPart } from '../protocol/ui-parts.js'

/**
 * Tool calls on the wire: an agent's `tool_call` chunk becomes the AI SDK's `tool-input-available`
 * part and its `tool_result` chunk `tool-output-available`, so `useChat` shows a `tool-<name>` part
 * with its input and output. The server runs no tool loop (a controller's job): these report what
 * the agent did. Arguments and results are JSON text in a chunk; text that is not JSON goes as is.
 */
export type ToolPart =
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown }

/** Every part a turn's stream carries. */
export type WirePart = UiPart | ToolPart

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** The tool part for a chunk, or undefined when the chunk is not a (well-formed) tool chunk. */
export function toolPartOf(chunk: StreamChunk): ToolPart | undefined {
  const call = chunk.toolCall
  if (!call || typeof call.id !== 'string' || call.id === '') return undefined
  if (chunk.type === 'tool_call' && typeof call.name === 'string') return { type: 'tool-input-available', toolCallId: call.id, toolName: call.name, input: parsed(call.args ?? '') }
  if (chunk.type === 'tool_result') return { type: 'tool-output-available', toolCallId: call.id, output: parsed(call.result ?? chunk.content ?? '') }
  return undefined
}
