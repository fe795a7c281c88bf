import type { ReactNode } from 'react'

/**
 * A small markdown renderer for agent plans: headings, paragraphs, lists, block quotes, fenced
 * code, inline code, bold and italics, built as React elements (never HTML strings, so plan text
 * cannot inject markup). Every line of the source is rendered: a plan is never truncated (seed 001).
 */

export type MarkdownBlock =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; ordered: boolean; items: string[] }
  | { type: 'quote'; text: string }
  | { type: 'code'; text: string }

const LIST_ITEM = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/

/** Pure: markdown source → blocks. Unknown syntax degrades to paragraph text, never dropped. */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = []
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  let index = 0
  while (index < lines.length) {
    const line = lines[index] as string
    if (line.trim() === '') { index += 1; continue }
    if (line.trimStart().startsWith('```')) {
      const body: string[] = []
      index += 1
      while (index < lines.length && !(lines[index] as string).trimStart().startsWith('```')) body.push(lines[index++] as string)
      index += 1
      blocks.push({ type: 'code', text: body.join('\n') })
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading !== null) {
      blocks.push({ type: 'heading', level: (heading[1] as string).length, text: (heading[2] as string).trim() })
      index += 1
      continue
    }
    const item = LIST_ITEM.exec(line)
    if (item !== null) {
      const ordered = item[2] !== undefined
      const items: string[] = []
      let match: RegExpExecArray | null = item
      while (match !== null && (match[2] !== undefined) === ordered) {
        items.push(match[3] as string)
        index += 1
        // Indented continuation lines belong to the item above.
        while (index < lines.length && /^\s{2,}\S/.test(lines[index] as string) && !LIST_ITEM.test(lines[index] as string)) {
          items[items.length - 1] += ` ${(lines[index++] as string).trim()}`
        }
        match = index < lines.length ? LIST_ITEM.exec(lines[index] as string) : null
      }
      blocks.push({ type: 'list', ordered, items })
      continue
    }
    const quote = line.startsWith('>')
    const body: string[] = []
    while (index < lines.length && (lines[index] as string).trim() !== '' && (lines[index] as string).startsWith('>') === quote
      && (quote || !(/^(#{1,6})\s|^\s*```/.test(lines[index] as string) || LIST_ITEM.test(lines[index] as string)))) {
      body.push(quote ? (lines[index] as string).replace(/^>\s?/, '') : (lines[index] as string))
      index += 1
    }
    blocks.push({ type: quote ? 'quote' : 'paragraph', text: body.join('\n') })
  }
  return blocks
}

function inline(text: string): ReactNode[] {
  const nodes: ReactNode[] = []
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    const token = match[0]
    const at = match.index
    if (at > last) nodes.push(text.slice(last, at))
    if (token.startsWith('`')) nodes.push(<code key={at}>{token.slice(1, -1)}</code>)
    else if (token.startsWith('**')) nodes.push(<strong key={at}>{token.slice(2, -2)}</strong>)
    else nodes.push(<em key={at}>{token.slice(1, -1)}</em>)
    last = at + token.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return nodes
}

function Block({ block }: { block: MarkdownBlock }): ReactNode {
  switch (block.type) {
    case 'heading': {
      const Tag = `h${Math.min(block.level + 3, 6)}` as 'h3'
      return <Tag>{inline(block.text)}</Tag>
    }
    case 'list': {
      const Tag = block.ordered ? 'ol' : 'ul'
      return <Tag>{block.items.map((item, i) => <li key={i}>{inline(item)}</li>)}</Tag>
    }
    case 'quote': return <blockquote>{inline(block.text)}</blockquote>
    case 'code': return <pre><code>{block.text}</code></pre>
    case 'paragraph': return <p>{inline(block.text)}</p>
  }
}

export function PlanMarkdown({ source }: { source: string }): ReactNode {
  return (
    <div data-chatrail-plan="">
      {parseMarkdown(source).map((block, i) => <Block key={i} block={block} />)}
    </div>
  )
}
