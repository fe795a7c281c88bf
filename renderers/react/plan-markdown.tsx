import type { ReactNode } from 'react'

/**
 * A small markdown renderer for agent plans: headings, paragraphs, block quotes, lists, fenced
 * code, inline code and bold, built as React elements (never HTML strings, so plan text cannot inject markup).
 * Anything else stays visible as text: a plan is never truncated (seed 001).
 */

export type MarkdownBlock =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; ordered: boolean; items: string[] }
  | { type: 'code'; text: string }

const FENCE = /^\s*```/
const LIST_ITEM = /^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$/

/** Pure: markdown source → blocks; every non-blank source line lands in exactly one block. */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = []
  let code: string[] | null = null
  let blank = true
  for (const line of source.split(/\r?\n/)) {
    if (code !== null) {
      if (FENCE.test(line)) { blocks.push({ type: 'code', text: code.join('\n') }); code = null } else code.push(line)
      continue
    }
    const last = blocks.at(-1)
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const item = LIST_ITEM.exec(line)
    if (FENCE.test(line)) code = []
    else if (line.trim() === '') { blank = true; continue }
    else if (heading !== null) blocks.push({ type: 'heading', level: (heading[1] as string).length, text: heading[2] as string })
    else if (item !== null) {
      const ordered = item[1] !== undefined
      if (last?.type === 'list' && last.ordered === ordered) last.items.push(item[2] as string)
      else blocks.push({ type: 'list', ordered, items: [item[2] as string] })
    } else if (last?.type === 'list' && !blank && /^\s/.test(line)) last.items.push(`${last.items.pop() as string} ${line.trim()}`)
    else if (last?.type === 'paragraph' && !blank) last.text += `\n${line}`
    else blocks.push({ type: 'paragraph', text: line })
    blank = false
  }
  if (code !== null) blocks.push({ type: 'code', text: code.join('\n') })
  return blocks
}

function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, i) =>
    i % 2 === 0 ? part : part.startsWith('`') ? <code key={i}>{part.slice(1, -1)}</code> : <strong key={i}>{part.slice(2, -2)}</strong>)
}

function Block({ block }: { block: MarkdownBlock }): ReactNode {
  if (block.type === 'code') return <pre><code>{block.text}</code></pre>
  if (block.type === 'list') {
    const List = block.ordered ? 'ol' : 'ul'
    return <List>{block.items.map((item, i) => <li key={i}>{inline(item)}</li>)}</List>
  }
  if (block.type === 'heading') {
    const Heading = `h${Math.min(block.level + 3, 6)}` as 'h4'
    return <Heading>{inline(block.text)}</Heading>
  }
  return block.text.startsWith('>')
    ? <blockquote>{inline(block.text.replace(/^>\s?/gm, ''))}</blockquote>
    : <p>{inline(block.text)}</p>
}

/** The rendered plan; part of the lazily loaded dialog UI (the public `<PlanMarkdown>` loads it, lazy-plan-markdown.tsx). */
export function PlanMarkdownContent({ source }: { source: string }): ReactNode {
  return <div data-chatrail-plan="">{parseMarkdown(source).map((block, i) => <Block key={i} block={block} />)}</div>
}
