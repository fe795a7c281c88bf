import type { Message } from '../../src/contract/message.js'

/**
 * What `<Static>` has printed. A terminal cannot take lines back, so the transcript is a log:
 * each settled message is printed once, in the order it settled. A retry or regenerate prints
 * its new reply below the old one, and an edited user message is printed again, marked.
 */

export interface PrintedEntry {
  key: string
  message: Message
  /** How the reply was decided (`deterministic · greet`), when known at print time. */
  label?: string
  edited: boolean
}

/** Describes how an assistant message was produced; undefined when unknown. */
export type DescribeReply = (message: Message, messages: readonly Message[]) => string | undefined

function isSettled(message: Message): boolean {
  return message.status === 'complete' || message.status === 'error'
}

function entryKey(message: Message): string {
  return `${message.id}\u0000${message.status}\u0000${message.content}`
}

/**
 * Appends the messages of `messages` that settled since `printed` was built. Pure; returns
 * `printed` itself when nothing new settled, so callers can compare by identity. A message is
 * printed at most once per (id, status, content); a later settled message is never printed
 * before an earlier one that is still streaming.
 */
export function appendSettled(
  printed: readonly PrintedEntry[],
  messages: readonly Message[],
  describe?: DescribeReply,
): readonly PrintedEntry[] {
  const seen = new Set(printed.map((entry) => entry.key))
  const printedIds = new Set(printed.map((entry) => entry.message.id))
  const added: PrintedEntry[] = []
  for (const message of messages) {
    if (!isSettled(message)) break
    const key = entryKey(message)
    if (seen.has(key)) continue
    const label = message.role === 'assistant' ? describe?.(message, messages) : undefined
    added.push({
      key,
      message,
      ...(label === undefined ? {} : { label }),
      edited: message.role === 'user' && printedIds.has(message.id),
    })
    seen.add(key)
  }
  return added.length === 0 ? printed : [...printed, ...added]
}
