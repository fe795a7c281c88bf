import type { AssistantContent, ModelMessage, ToolResultPart } from 'ai'
import type { AdapterRequest } from '../contract/adapter.js'
import type { Message } from '../contract/message.js'

/**
 * An `AdapterRequest` → the AI SDK's prompt: one `system` string and the model messages. Pure;
 * the request is never mutated.
 *
 * - System messages (the controller's system prompt, retrieved documents) and
 *   `context.systemPrompt` (when no system message carries it already) join the adapter's own
 *   `system`, in that order, so no provider sees a system message mid-history.
 * - An assistant message becomes its text plus one `tool-call` part per tool call; a `tool`
 *   message (the controller's tool result) a `tool-result` part naming the call's tool, read from
 *   the assistant message that made the call.
 * - Empty assistant messages (the controller's streaming placeholder) are left out.
 */
export interface ModelPrompt {
  readonly system: string | undefined
  readonly messages: ModelMessage[]
}

export function toModelPrompt(request: AdapterRequest, adapterSystem: string | undefined): ModelPrompt {
  const systems: string[] = adapterSystem ? [adapterSystem] : []
  const messages: ModelMessage[] = []
  const toolNames = new Map<string, string>()
  for (const message of request.messages) {
    if (message.role === 'system') {
      if (message.content !== '') systems.push(message.content)
      continue
    }
    if (message.role === 'user') {
      messages.push({ role: 'user', content: message.content })
      continue
    }
    if (message.role === 'assistant') {
      const assistant = assistantMessage(message, toolNames)
      if (assistant) messages.push(assistant)
      continue
    }
    messages.push({ role: 'tool', content: [toolResult(message, toolNames)] })
  }
  const systemPrompt = request.context?.systemPrompt
  if (systemPrompt && !request.messages.some((message) => message.role === 'system' && message.content === systemPrompt)) systems.push(systemPrompt)
  return { system: systems.length > 0 ? systems.join('\n\n') : undefined, messages }
}

function assistantMessage(message: Message, toolNames: Map<string, string>): ModelMessage | undefined {
  const calls = message.toolCalls ?? []
  if (calls.length === 0) return message.content === '' ? undefined : { role: 'assistant', content: message.content }
  const content: Exclude<AssistantContent, string> = message.content === '' ? [] : [{ type: 'text', text: message.content }]
  for (const call of calls) {
    toolNames.set(call.id, call.name)
    content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args })
  }
  return { role: 'assistant', content }
}

function toolResult(message: Message, toolNames: ReadonlyMap<string, string>): ToolResultPart {
  const toolCallId = message.toolCallId ?? ''
  // a result whose call is not in the request still reaches the model, under a name it can read
  return { type: 'tool-result', toolCallId, toolName: toolNames.get(toolCallId) ?? 'unknown_tool', output: { type: 'text', value: message.content } }
}

