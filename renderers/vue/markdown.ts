import { defineAsyncComponent, h } from 'vue'
import type { FunctionalComponent, VNodeChild } from 'vue'
import type { MessageLabels } from '../../src/view/message-labels.js'
import { CopyButton } from './message-actions.js'

/** How an answer's or a plan's text is drawn; pass your own to `<MessageList :markdown>` / `<ChatSession :markdown>`. */
export type MarkdownRenderer = (source: string, options?: MarkdownRenderOptions) => VNodeChild

export interface MarkdownRenderOptions {
  /** The text is still streaming in (half-typed syntax is held back). */
  streaming?: boolean
  /** The level headings become: 3 in an answer (under the page's h1 and the chat's h2), 4 in a plan. */
  headingLevel?: number
  /** The words of the code blocks' copy button (the chat's labels). */
  labels?: Pick<MessageLabels, 'copyCode' | 'copyCodeIn' | 'copied'>
}

/** The source as plain text (pre-wrapped): until the markdown chunk is in, and for good if it failed to load. */
// declaring no props, it takes them all and passes only class, style and listeners on
const PlainText: FunctionalComponent<{ source: string }> = (props) => h('div', { 'data-chatrail-markdown-source': '' }, props.source)

/** markdown-to-jsx's Vue renderer (markdown-content.ts), a chunk of its own. */
const MarkdownContent = defineAsyncComponent({
  loader: () => import('./markdown-content.js').then((module) => module.MarkdownContent),
  loadingComponent: PlainText,
  errorComponent: PlainText,
  delay: 0,
})

/**
 * The default `MarkdownRenderer`: markdown as VNodes (headings, lists, tables, safe links, code
 * blocks with a language label and a copy button; raw HTML shown as text), as chatrail/react's
 * `<Markdown>`. The renderer is a lazily loaded chunk; until it is in, the source shows as plain text.
 */
export const renderMarkdown: MarkdownRenderer = (source, options = {}) =>
  h(MarkdownContent, { source, streaming: options.streaming ?? false, headingLevel: options.headingLevel ?? 3, copyButton: CopyButton, labels: options.labels })
