import type { ChatConfig } from '../contract/chat.js'
import { DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS, type ServerToolOptions, type ToolLoopInput } from './tool-loop.js'

export type { ServerToolOptions }

/** What a turn's tool loop is given: the definition's tools and the handler's bounds. */
export type ServerTools = Pick<ToolLoopInput, 'tools' | 'validateArgs' | 'maxSteps' | 'timeoutMs'>

/**
 * The handler's tool loop, read once at creation: undefined when the definition declares no tools
 * (its turns run exactly as before: one model call, tool calls closed unanswered). Bad bounds throw
 * a TypeError naming the option, as the handler's other limits do.
 */
export function serverTools(chat: Pick<ChatConfig, 'tools' | 'validateArgs'>, options: ServerToolOptions | undefined): ServerTools | undefined {
  const maxSteps = bound(options?.maxSteps, DEFAULT_MAX_STEPS, 'tools.maxSteps')
  const timeoutMs = bound(options?.timeoutMs, DEFAULT_TOOL_TIMEOUT_MS, 'tools.timeoutMs')
  const tools = chat.tools ?? []
  if (tools.length === 0) return undefined
  const names = new Set<string>()
  for (const tool of tools) {
    if (names.has(tool.name)) throw new TypeError(`createChatHandler: the definition declares the tool "${tool.name}" twice; give each tool in chat.tools its own name.`)
    names.add(tool.name)
  }
  return { tools: [...tools], validateArgs: chat.validateArgs, maxSteps, timeoutMs }
}

function bound(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`createChatHandler: ${name} must be a positive integer (got ${String(value)}).`)
  return value
}
