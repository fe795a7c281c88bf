import { useId, useState } from 'react'
import type { ReactNode } from 'react'
import { extrasLabels } from '../../src/view/extras-labels.js'
import { useLabels } from './extras-context.js'

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

/**
 * A block of tool input or output (`pre[data-chatrail-tool-output]`), cut at 20 lines or 2,000
 * characters with a real button that shows the rest ("Show more" / "Show less", `aria-expanded`).
 */
export function TruncatedOutput({ text, label }: { text: string; label: string }): ReactNode {
  const [expanded, setExpanded] = useState(false)
  const words = useLabels(extrasLabels)
  const id = useId()
  const head = truncatedHead(text)
  return (
    <div data-chatrail-tool-section="">
      <p data-chatrail-tool-label="">{label}</p>
      <pre id={id} data-chatrail-tool-output="" data-chatrail-truncated={head !== undefined && !expanded ? '' : undefined}>
        {head === undefined || expanded ? text : `${head}…`}
      </pre>
      {head !== undefined && (
        <button type="button" data-chatrail-show-more="" aria-expanded={expanded} aria-controls={id} onClick={() => setExpanded(!expanded)}>
          {expanded ? words.showLess : words.showMore}
        </button>
      )}
    </div>
  )
}
