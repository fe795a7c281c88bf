import { asObject, str } from './record-fields.js'

/**
 * Background work that keeps a session `working` after its turn's text (run-state-readers.md §3.1,
 * the "pending-work hold"). Structural only, never prose. Pure.
 *
 * - An async launch (`toolUseResult.status: "async_launched"`) holds its `agentId` (Agent) or
 *   else its `taskId` (Workflow); a SendMessage resume (`resumedAgentId`) holds that id again.
 * - A `<task-notification>` carrying `<task-id>X</task-id>` and a non-empty `<status>` releases X,
 *   through any carrier (user line, queue-operation, queued_command attachment); a status-less
 *   one (a Monitor event) does not. A TaskStop call releases its `task_id` at once.
 * - Background Bash (`backgroundTaskId`) and synchronous Agent calls are never held.
 */

/** The id a tool result starts holding, if any. */
export function heldWorkId(toolUseResult: unknown): string | undefined {
  const result = asObject(toolUseResult)
  if (result === undefined) return undefined
  const resumed = str(result.resumedAgentId)
  if (resumed !== undefined && resumed !== '') return resumed
  if (result.status !== 'async_launched') return undefined
  return nonEmpty(str(result.agentId)) ?? nonEmpty(str(result.taskId))
}

/** The id a task notification releases, if it carries both a task id and a status. */
export function releasedWorkId(notification: string): string | undefined {
  if (!notification.includes('<task-notification>')) return undefined
  const id = between(notification, 'task-id')
  const status = between(notification, 'status')
  return id !== undefined && id !== '' && status !== undefined && status !== '' ? id : undefined
}

/** A background Bash launch's task id (`toolUseResult.backgroundTaskId`): the command runs on. */
export function backgroundTaskId(toolUseResult: unknown): string | undefined {
  return nonEmpty(str(asObject(toolUseResult)?.backgroundTaskId))
}

/** A task notification's `<status>` (`completed`, `failed`, `killed`, …), if it has one. */
export function notificationStatus(notification: string): string | undefined {
  return nonEmpty(between(notification, 'status'))
}

/** The id a TaskStop tool_use releases. */
export function stoppedWorkId(toolName: string, input: unknown): string | undefined {
  if (toolName !== 'TaskStop' && toolName !== 'KillShell') return undefined
  const fields = asObject(input)
  return nonEmpty(str(fields?.task_id)) ?? nonEmpty(str(fields?.shell_id))
}

function between(text: string, name: string): string | undefined {
  const open = `<${name}>`
  const start = text.indexOf(open)
  if (start === -1) return undefined
  const end = text.indexOf(`</${name}>`, start)
  return end === -1 ? undefined : text.slice(start + open.length, end).trim()
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
