import type { ReactNode } from 'react'
import { MessageUIPart } from './message-ui-part.js'

export interface MarkdownProps {
  source: string
  /** The heading level a `#` heading becomes; default 3 (under the page's h1 and the chat's h2). */
  headingLevel?: number
  /** The text is still streaming in (half-typed syntax is held back). */
  streaming?: boolean
}

/**
 * Markdown as React elements (headings, lists, tables, safe links, code blocks with a language
 * label and a copy button; raw HTML shown as text). The renderer is in the lazily loaded message
 * UI chunk (`preloadMessageUI()`); until it is in, or if it failed to load, the source shows as
 * plain text (`data-chatrail-markdown-source`).
 */
export function Markdown({ source, headingLevel = 3, streaming = false }: MarkdownProps): ReactNode {
  return (
    <MessageUIPart
      fallback={<div data-chatrail-markdown-source="">{source}</div>}
      render={(ui) => <ui.MarkdownContent source={source} headingLevel={headingLevel} streaming={streaming} CopyButton={ui.CopyButton} />}
    />
  )
}
