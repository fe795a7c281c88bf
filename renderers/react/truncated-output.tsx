import { useId, useState } from 'react'
import type { ReactNode } from 'react'
import { extrasLabels } from '../../src/view/extras-labels.js'
import { useLabels } from './extras-context.js'
import { truncatedHead } from '../../src/view/tool-output.js'

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
