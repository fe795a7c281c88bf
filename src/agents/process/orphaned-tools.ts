import type { AgentChat } from '../../contract/agent-chat.js'

/** What an orphaned tool's output says in place of the result its transcript never recorded. */
export const ORPHANED_TOOL_OUTPUT = 'Still running when the agent exited; its result is unknown.'

/** The ids of the tools `chat` shows running. */
export function runningToolIds(chat: AgentChat): string[] {
  const ids: string[] = []
  for (const message of chat.messages) if (message.tool?.status === 'running') ids.push(message.tool.id)
  return ids
}

/**
 * `chat` with the tools in `orphaned` that it still shows running marked ended (`error`, result
 * unknown): their process is gone, so they are not running, whatever the transcript last said.
 * Returns `chat` itself when none is. Pure.
 */
export function settleOrphanedTools(chat: AgentChat, orphaned: ReadonlySet<string>): AgentChat {
  if (orphaned.size === 0) return chat
  let changed = false
  const messages = chat.messages.map((message) => {
    const tool = message.tool
    if (tool?.status !== 'running' || !orphaned.has(tool.id)) return message
    changed = true
    return { ...message, tool: { ...tool, status: 'error' as const, output: ORPHANED_TOOL_OUTPUT } }
  })
  return changed ? { ...chat, messages } : chat
}
