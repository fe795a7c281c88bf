import type { Dialog } from '../../src/contract/dialog.js'
import type { Message } from '../../src/contract/message.js'

/**
 * What `<Static>` has printed. A terminal cannot take lines back, so the transcript is a log:
 * each settled message is printed once, in the order it settled. A retry or regenerate prints
 * its new reply below the old one, and an edited user message is printed again, marked. An agent
 * dialog is printed once it has an outcome (its Q→A lines), after the message it arrived behind.
 */

export type PrintedEntry = PrintedMessage | PrintedDialog

export interface PrintedMessage {
  kind: 'message'
  key: string
  message: Message
  /** How the reply was decided (`deterministic · greet`), when known at print time. */
  label?: string
  edited: boolean
  /** Tool calls that are agent dialogs: their Q→A lines stand for them, so the view hides them. */
  dialogToolIds?: readonly string[]
  /** A failed reply's error line (see `failureLine`), known when it settled. */
  failure?: string
  /** Printed again on a switch to this version (`version 1/2`, on the first message of the version). */
  version?: string
  /** The key this entry prints again (`reprintBranch`): that message counts as printed. */
  reprintOf?: string
}

export interface PrintedDialog {
  kind: 'dialog'
  key: string
  dialog: Dialog
}

/** A dialog the mount has seen, and the id of the last message when it arrived (see `useChatSession`'s `dialogLog`). */
export interface SeenDialog {
  dialog: Dialog
  anchor: string | null
}

/** Describes how an assistant message was produced; undefined when unknown. */
export type DescribeReply = (message: Message, messages: readonly Message[]) => string | undefined

/** Says why a settled reply failed (its error line); undefined for one that did not. */
export type DescribeFailure = (message: Message) => string | undefined

function isSettled(message: Message): boolean {
  return message.status === 'complete' || message.status === 'error'
}

function entryKey(message: Message): string {
  return `${message.id}\u0000${message.status}\u0000${message.content}`
}

/** The dialog an adapter recorded on a message (`metadata.chatrail.dialog`), if any. */
function recordedDialog(message: Message): Dialog | undefined {
  const dialog = (message.metadata?.['chatrail'] as { dialog?: Partial<Dialog> } | null | undefined)?.dialog
  return typeof dialog?.toolId === 'string' && typeof dialog.prompt === 'string' && (dialog.kind === 'question' || dialog.kind === 'plan')
    ? dialog as Dialog
    : undefined
}

/**
 * The agent's part of a reply whose agent failed after some text and whose definition's fallback
 * answered into the same message (`failedAt`: the reply's length when the agent failed, from
 * `useChatSession`), as a failed message of its own; undefined for any other reply.
 */
function partialBeforeFallback(message: Message, failedAt: ReadonlyMap<string, number> | undefined): Message | undefined {
  const at = failedAt?.get(message.id)
  if (at === undefined || at <= 0 || at >= message.content.length || message.status !== 'complete') return undefined
  return { ...textOnly(message, message.content.slice(0, at)), status: 'error' }
}

/** The message with this text as its whole content (its parts, which span both answers, dropped). */
function textOnly(message: Message, content: string): Message {
  const { parts: _parts, ...rest } = message
  return { ...rest, content }
}

/**
 * Appends the messages of `messages` that settled since `printed` was built, and the dialogs of
 * `dialogs` (and those recorded on messages) that got an outcome. Pure; returns `printed` itself
 * when nothing new settled, so callers can compare by identity. A message is printed at most
 * once per (id, status, content), a dialog once per tool id; a later settled message is never
 * printed before an earlier one that is still streaming. A reply in `failedAt` is printed as two:
 * the agent's partial answer with its failure line, then the fallback's answer.
 */
export function appendSettled(
  printed: readonly PrintedEntry[],
  messages: readonly Message[],
  describe?: DescribeReply,
  dialogs: readonly SeenDialog[] = [],
  failure?: DescribeFailure,
  failedAt?: ReadonlyMap<string, number>,
): readonly PrintedEntry[] {
  const seen = new Set(printed.flatMap((entry) => (entry.kind === 'message' && entry.reprintOf !== undefined ? [entry.key, entry.reprintOf] : [entry.key])))
  const printedIds = new Set(printed.flatMap((entry) => (entry.kind === 'message' ? [entry.message.id] : [])))
  const dialogIds = new Set([...dialogs.map((seenDialog) => seenDialog.dialog.toolId), ...messages.flatMap((m) => recordedDialog(m)?.toolId ?? [])])
  const added: PrintedEntry[] = []
  const printDialog = (dialog: Dialog): void => {
    const key = `dialog\u0000${dialog.toolId}`
    if (dialog.outcome === undefined || seen.has(key)) return
    added.push({ kind: 'dialog', key, dialog })
    seen.add(key)
  }
  const printAnchored = (anchor: string | null): void => {
    for (const { dialog, anchor: at } of dialogs) if (at === anchor) printDialog(dialog)
  }

  printAnchored(null)
  for (const message of messages) {
    if (!isSettled(message)) break
    const key = entryKey(message)
    if (!seen.has(key)) {
      const label = message.role === 'assistant' ? describe?.(message, messages) : undefined
      const hidden = (message.toolCalls ?? []).map((call) => call.id).filter((id) => dialogIds.has(id))
      const partial = message.role === 'assistant' ? partialBeforeFallback(message, failedAt) : undefined
      if (partial !== undefined) {
        // the agent's partial answer ends with its failure; the fallback's answer is a reply of its own
        const failed = failure?.(partial)
        added.push({ kind: 'message', key: `${key}\u0000partial`, message: partial, edited: false, ...(failed === undefined ? {} : { failure: failed }) })
      }
      const shown = partial === undefined ? message : textOnly(message, message.content.slice(partial.content.length))
      const failed = message.role === 'assistant' ? failure?.(shown) : undefined
      added.push({
        kind: 'message',
        key,
        message: shown,
        ...(label === undefined ? {} : { label }),
        edited: message.role === 'user' && printedIds.has(message.id),
        ...(hidden.length === 0 ? {} : { dialogToolIds: hidden }),
        ...(failed === undefined ? {} : { failure: failed }),
      })
      seen.add(key)
    }
    const recorded = recordedDialog(message)
    if (recorded !== undefined) printDialog(dialogs.find((d) => d.dialog.toolId === recorded.toolId && d.dialog.outcome !== undefined)?.dialog ?? recorded)
    printAnchored(message.id)
  }
  return added.length === 0 ? printed : [...printed, ...added]
}

/**
 * The log with `messages[from..]` printed again, the first marked `version` (`version 1/2`): a
 * terminal cannot take lines back, so a switch to another version of a message prints that
 * version below, as a regenerate prints its new reply. Pure; each reprint has keys of its own
 * (`printed.length` tells reprints apart), and counts as printing its message for `appendSettled`.
 */
export function reprintBranch(printed: readonly PrintedEntry[], messages: readonly Message[], from: number, version: string): readonly PrintedEntry[] {
  const added: PrintedEntry[] = []
  for (const message of messages.slice(from)) {
    if (!isSettled(message)) break
    const key = entryKey(message)
    added.push({
      kind: 'message',
      key: `${key}\u0000reprint ${printed.length}`,
      message,
      edited: false,
      reprintOf: key,
      ...(added.length === 0 ? { version } : {}),
    })
  }
  return added.length === 0 ? printed : [...printed, ...added]
}
