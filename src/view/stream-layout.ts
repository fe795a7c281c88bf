import type { Message } from '../contract/message.js'
import type { Dialog } from '../contract/dialog.js'
import type { DialogLog, DialogLogEntry } from './dialog-log.js'

/**
 * Where dialogs sit in the chat stream (seed 001). A message "is" a dialog message when its
 * `metadata.chatrail.dialog` holds a `Dialog` (an adapter's transcript-derived record, pending or
 * answered) or when one of its `toolCalls` has the dialog's tool id (the `tool_call` chunk an
 * agent adapter emits for AskUserQuestion / ExitPlanMode). Pure; the same inputs give equal items.
 */

export type StreamItem =
  /**
   * A message, or one part of it: a reply that went on after hosting a dialog is split where the
   * dialog arrived, so the Q→A summary reads before the text that answers it (`part` and `text`).
   */
  | { kind: 'message'; key: string; message: Message; part?: 'before' | 'after' | 'fallback'; text?: string }
  | { kind: 'dialog'; key: string; dialog: Dialog; pending: boolean }

// Property reads on a primitive give undefined, so these checks need no typeof-object guard.
function isDialog(value: unknown): value is Dialog {
  const candidate = value as Partial<Dialog> | null | undefined
  return typeof candidate?.toolId === 'string' && (candidate.kind === 'question' || candidate.kind === 'plan')
    && typeof candidate.prompt === 'string' && Array.isArray(candidate.options)
}

/** The dialog an adapter recorded on a message (`metadata.chatrail.dialog`), if any. */
export function dialogOfMessage(message: Message): Dialog | undefined {
  const dialog = (message.metadata?.['chatrail'] as { dialog?: unknown } | null | undefined)?.dialog
  return isDialog(dialog) ? dialog : undefined
}

/** The tool ids a message can host a dialog card for. */
function toolIdsOf(message: Message): string[] {
  const ids = (message.toolCalls ?? []).map((call) => call.id)
  const recorded = dialogOfMessage(message)
  if (recorded !== undefined && !ids.includes(recorded.toolId)) ids.push(recorded.toolId)
  return ids
}

/**
 * The best-known version of every dialog by tool id: an outcome beats no outcome, and a
 * history-recorded dialog (the transcript's ground truth) beats the mount's own log.
 */
function resolveDialogs(messages: readonly Message[], log: DialogLog): Map<string, Dialog> {
  const byTool = new Map<string, Dialog>()
  for (const entry of log) byTool.set(entry.dialog.toolId, entry.dialog)
  for (const message of messages) {
    const recorded = dialogOfMessage(message)
    if (recorded === undefined) continue
    const known = byTool.get(recorded.toolId)
    if (known === undefined || recorded.outcome !== undefined || known.outcome === undefined) byTool.set(recorded.toolId, recorded)
  }
  return byTool
}

/** The pending dialog to answer: the log's unanswered entry (unless history records its outcome), else a pending one in history. */
export function pendingDialogOf(messages: readonly Message[], log: DialogLog): Dialog | undefined {
  const resolved = resolveDialogs(messages, log)
  // A dialog the transcript itself shows pending is a stream message, not the agent's pendingDialog:
  // after the log's entries, history's recorded dialogs count, newest first.
  const recorded = messages.map(dialogOfMessage).reverse()
  return [...log.map((entry) => entry.dialog), ...recorded]
    .map((dialog) => dialog && resolved.get(dialog.toolId))
    .find((dialog) => dialog !== undefined && dialog.outcome === undefined)
}

/**
 * The stream: every message in order, each dialog right after the message that hosts it, an
 * answered log dialog without a host after the message it arrived behind, a pending one without a
 * host at the very end, and never one tool id twice. A hosting message whose text grew after the
 * dialog arrived (the log's `offset`) is split there: text before, the dialog, the text after;
 * so is a reply whose agent failed after some text (`failedAt`): the partial answer, then the
 * definition's fallback answer as its own bubble. A logged answered dialog whose anchor left
 * history (edit, regenerate) left with it. A dialog whose answer is in flight stays a card.
 */
export function layoutStream(messages: readonly Message[], log: DialogLog, failedAt?: ReadonlyMap<string, number>): StreamItem[] {
  const resolved = resolveDialogs(messages, log)
  const hosted = new Set(messages.flatMap(toolIdsOf))
  const items: StreamItem[] = []
  const placed = new Set<string>()
  const place = (toolId: string): void => {
    const dialog = resolved.get(toolId)
    if (dialog === undefined || placed.has(toolId)) return
    placed.add(toolId)
    items.push({ kind: 'dialog', key: `dialog:${toolId}`, dialog, pending: dialog.outcome === undefined })
  }
  // Log entries are all in `resolved`; `answered` picks the unhosted ones that render as history.
  const answered = (entry: DialogLogEntry): boolean => !hosted.has(entry.dialog.toolId) && resolved.get(entry.dialog.toolId)?.outcome !== undefined
  const placeAnchored = (anchor: string | null): void => {
    for (const entry of log) if (entry.anchor === anchor && answered(entry)) place(entry.dialog.toolId)
  }

  placeAnchored(null)
  for (const message of messages) {
    const toolIds = toolIdsOf(message)
    const failed = failedAt?.get(message.id)
    const offset = failed ?? log.find((entry) => toolIds.includes(entry.dialog.toolId) && entry.offset !== undefined)?.offset
    const split = offset !== undefined && offset > 0 && offset < message.content.length
    items.push(split ? { kind: 'message', key: message.id, message, part: 'before', text: message.content.slice(0, offset) } : { kind: 'message', key: message.id, message })
    toolIds.forEach(place)
    if (split) items.push({ kind: 'message', key: `${message.id}:after`, message, part: failed === undefined ? 'after' : 'fallback', text: message.content.slice(offset) })
    placeAnchored(message.id)
  }
  // Unhosted pending dialogs go last; unhosted answered ones whose anchor left history are dropped.
  for (const entry of log) if (resolved.get(entry.dialog.toolId)?.outcome === undefined) place(entry.dialog.toolId)
  return items
}
