import { createElement } from 'react'
import type { ComponentType, ReactNode } from 'react'
import { RuleType, astToJSX, parser } from 'markdown-to-jsx/react'
import type { MarkdownToJSX } from 'markdown-to-jsx/react'
import { CodeBlock } from './code-block.js'
import { useLabels } from './message-ui-context.js'
import { headingLevels } from '../../src/view/heading-levels.js'
import { messageLabels } from '../../src/view/message-labels.js'

/**
 * Markdown rendered with markdown-to-jsx (part of the lazily loaded markdown chunk, markdown-ui.ts):
 * React elements only, never an HTML string. Raw HTML stays visible as text, a link whose URL the
 * library's sanitizer rejects (`javascript:`, `vbscript:`, `data:`) is plain text, an image is a
 * link (an answer cannot make the page fetch anything), headings take the outline's next levels
 * without gaps and get no `id` (two answers must not clash), code blocks get a language label and
 * a copy button, and a block with a language is highlighted once the highlighter chunk is in
 * (code-block.tsx). Nothing is ever truncated (seed 001 for plans).
 */

export interface MarkdownContentProps {
  source: string
  /** The level the document's biggest heading becomes; smaller ones follow without gaps (max 6). */
  headingLevel: number
  /** A reply still streaming: an unfinished `**bold` or link is not shown half-parsed. */
  streaming: boolean
  /** The entry's copy button (this chunk imports nothing from the entry). */
  CopyButton: ComponentType<{ text: string; label: string }>
}

export function MarkdownContent({ source, headingLevel, streaming, CopyButton }: MarkdownContentProps): ReactNode {
  const words = useLabels(messageLabels)
  const options: MarkdownToJSX.Options = { disableParsingRawHTML: true, optimizeForStreaming: streaming, wrapper: null, forceBlock: true }
  const ast = parser(source, options)
  const levels = headingLevels(ast, RuleType.heading, headingLevel)
  const renderRule: MarkdownToJSX.Options['renderRule'] = (next, node, children, state) => {
    const key = state.key
    switch (node.type) {
      case RuleType.heading:
        return createElement(`h${levels.get(node.level) ?? 6}`, { key }, children(node.children, state))
      case RuleType.codeBlock: {
        const lang = node.lang?.trim() ?? ''
        return (
          <div key={key} data-chatrail-code="">
            <div data-chatrail-code-header="">
              {/* A fence without a language has no label (it is not "text"). */}
              {lang !== '' && <span data-chatrail-code-lang="">{lang}</span>}
              <CopyButton text={node.text} label={lang === '' ? words.copyCode : words.copyCodeIn(lang)} />
            </div>
            <CodeBlock code={node.text} language={lang} />
          </div>
        )
      }
      case RuleType.link:
        return node.target === null
          ? <span key={key}>{children(node.children, state)}</span>
          : <a key={key} href={node.target} title={node.title} target="_blank" rel="noopener noreferrer">{children(node.children, state)}</a>
      case RuleType.image:
        return node.target === null
          ? <span key={key}>{node.alt}</span>
          : <a key={key} href={node.target} target="_blank" rel="noopener noreferrer">{node.alt || node.target}</a>
      case RuleType.table:
        // Wide tables scroll sideways inside the bubble, never the page; focusable, so keys can scroll them too.
        return <div key={key} data-chatrail-table="" tabIndex={0}>{next()}</div>
      default:
        return next()
    }
  }
  return <div data-chatrail-markdown="">{astToJSX(ast, { ...options, renderRule })}</div>
}
