/** How a tool call's input and output read on a card, for every binding: the arguments as JSON, a long output cut. Pure. */

/** Past either limit a tool's output is cut and a "Show more" button reveals the rest. */
export const OUTPUT_LINE_LIMIT = 20
export const OUTPUT_CHAR_LIMIT = 2_000

/**
 * Pure: the head of `text` shown before "Show more", or undefined when it fits (at most
 * `OUTPUT_LINE_LIMIT` lines and `OUTPUT_CHAR_LIMIT` characters). The head is always a prefix of
 * `text` within both limits.
 */
export function truncatedHead(text: string): string | undefined {
  let head = text.length > OUTPUT_CHAR_LIMIT ? text.slice(0, OUTPUT_CHAR_LIMIT) : text
  let newlines = 0
  for (let index = 0; index < head.length; index += 1) {
    if (head.charCodeAt(index) !== 10) continue
    newlines += 1
    if (newlines === OUTPUT_LINE_LIMIT) { head = head.slice(0, index); break }
  }
  return head.length < text.length ? head : undefined
}

/** Pure: the call's arguments as the card shows them (two-space JSON; `{}` when there are none). */
export function formatToolArgs(args: Record<string, unknown>): string {
  try {
    return JSON.stringify(args, null, 2) ?? '{}'
  } catch {
    // args come from the model: a cycle cannot arrive over JSON, but a local proposal could hold one
    return String(args)
  }
}
