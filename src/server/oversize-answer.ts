import type { Message } from '../contract/message.js'

/**
 * An answer the store refused as over its `maxMessageBytes`, made to fit (pure). The turn already
 * ran: the agent answered and whatever it did is done, so failing the turn (nothing stored, a
 * retry running the agent again) would repeat its side effects and lose the user message. Instead
 * the answer is kept as a complete answer, its text cut to the longest prefix whose message fits
 * (counted as the store counts: the JSON in UTF-8 bytes, never splitting a surrogate pair), its
 * decision record kept (state follows history), and `metadata.truncated` saying so:
 * `{ code: 'ANSWER_TOO_LARGE', bytes, maxBytes }` (`bytes`: the refused size). A retry of the same
 * user message replays it. The tool calls' record (`metadata.tools`, display only) and the earlier
 * versions it heads (`metadata.versions`: the answer's own text matters more) are not kept;
 * when not even the empty text fits (a record over the limit), the decision record goes too. Undefined: nothing fits (a limit below a bare message).
 */
export function fitAnswer(answer: Message, bytes: number, maxBytes: number): Message | undefined {
  const truncated = { code: 'ANSWER_TOO_LARGE', bytes, maxBytes }
  // what of the metadata is kept, most first: all but the tool calls' record (display only: the
  // answer's text matters more); nothing but `truncated`
  const { tools: _tools, versions: _versions, ...withoutTools } = answer.metadata ?? {}
  const keeps = [withoutTools, {}]
  // its components go with the tool calls' record: a cut answer is its text (which holds each
  // component's summary), not parts that no longer match it
  const { parts: _parts, ...withoutParts } = answer
  const withText = (content: string, kept: Record<string, unknown> | undefined): Message => ({
    ...withoutParts,
    content,
    metadata: { ...kept, truncated },
  })
  const fits = (message: Message): boolean => sizeOf(message) <= maxBytes
  for (const keepRecord of keeps) {
    if (!fits(withText('', keepRecord))) continue
    // the longest prefix that fits: a binary search over UTF-16 lengths (log2 of the text's length stringifications)
    const text = answer.content
    let low = 0
    let high = text.length
    while (low < high) {
      const mid = Math.ceil((low + high) / 2)
      if (fits(withText(prefix(text, mid), keepRecord))) low = mid
      else high = mid - 1
    }
    return withText(prefix(text, low), keepRecord)
  }
  return undefined
}

const encoder = new TextEncoder()
const sizeOf = (message: Message): number => encoder.encode(JSON.stringify(message)).byteLength

/** The first `length` UTF-16 units, one less when that would cut a surrogate pair in half. */
function prefix(text: string, length: number): string {
  const last = text.charCodeAt(length - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length)
}
