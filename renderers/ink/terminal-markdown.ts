import { RuleType, parser } from 'markdown-to-jsx'
import type { MarkdownToJSX } from 'markdown-to-jsx'
import { terminalText } from '../../src/contract/terminal-text.js'

/**
 * Markdown for the terminal: the parser is markdown-to-jsx's (the library `chatrail/react` renders
 * with), the layout is ours, as styled lines that Ink prints with `<Text>` props. Headings are
 * bold (level 1 also underlined), emphasis is bold / italic / struck through, inline code and code
 * blocks are coloured (a block under a dim language label), lists keep their bullets or numbers
 * with a hanging indent, quotes get a bar. Raw HTML is never interpreted (its text is shown as
 * typed) and terminal control characters are shown as symbols (src/contract/terminal-text.ts).
 * Pure functions; `wrapLines` breaks between words and only cuts a word longer than the width.
 */

export interface Span {
  text: string
  bold?: boolean
  italic?: boolean
  underline?: boolean
  strikethrough?: boolean
  dim?: boolean
  color?: string
}

export interface StyledLine {
  spans: Span[]
  /** Columns a wrapped continuation of this line is indented by (a list item's text column). */
  indent: number
  /**
   * A table row: its cells, and the table's natural column widths (one array shared by every row
   * of the table, so `wrapLines` fits each row to the same columns). `spans` is the row unfitted.
   */
  table?: { cells: Span[][]; widths: readonly number[]; rule?: boolean }
}

type Node = MarkdownToJSX.ASTNode
type Style = Omit<Span, 'text'>

const CODE_COLOR = 'yellow'

export { markdownTitle } from '../../src/contract/markdown-title.js'

/**
 * A markdown source cut at the blank lines between its blocks (never inside a fenced code block),
 * so a streaming reply lays out only its last, growing block again: the blocks before it are
 * final. Joining the pieces with blank lines gives the source back, up to blank-line runs. Pure.
 */
export function markdownBlocks(source: string): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let fence: string | undefined
  for (const line of source.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker !== undefined && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === undefined ? marker : undefined
    if (fence === undefined && line.trim() === '') {
      if (current.length > 0) blocks.push(current.join('\n'))
      current = []
    } else current.push(line)
  }
  if (current.length > 0) blocks.push(current.join('\n'))
  return blocks
}

/** The markdown source as logical lines (not yet wrapped), blocks separated by a blank line. */
export function markdownLines(source: string): StyledLine[] {
  // Control characters an agent's text could carry (ESC starts terminal commands: colours, cursor
  // moves, window titles, clipboard writes) are shown as symbols; only line breaks and tabs stay.
  const nodes = parser(terminalText(source), { disableParsingRawHTML: true, disableFrontmatter: true })
  return trimBlank(blocks(nodes, 0))
}

function blocks(nodes: readonly Node[], indent: number): StyledLine[] {
  const lines: StyledLine[] = []
  for (const node of nodes) {
    const block = blockLines(node, indent)
    if (block.length === 0) continue
    if (lines.length > 0) lines.push({ spans: [], indent: 0 })
    lines.push(...block)
  }
  return lines
}

function blockLines(node: Node, indent: number): StyledLine[] {
  switch (node.type) {
    case RuleType.heading: {
      const style: Style = node.level === 1 ? { bold: true, underline: true } : node.level === 2 ? { bold: true } : { bold: true, dim: true }
      return inlineLines(node.children, style, indent)
    }
    case RuleType.paragraph:
      return inlineLines(node.children, {}, indent)
    case RuleType.codeBlock: {
      const label: StyledLine[] = node.lang === undefined || node.lang === '' ? [] : [{ spans: [{ text: node.lang, dim: true }], indent }]
      const code = node.text.replace(/\n$/, '').split('\n').map((text) => ({ spans: [{ text: `  ${text}`, color: CODE_COLOR }], indent: indent + 2 }))
      return [...label, ...code]
    }
    case RuleType.blockQuote:
      return blocks(node.children, indent).map((line) => ({ spans: [{ text: '│ ', dim: true }, ...line.spans.map((span) => ({ ...span, italic: true }))], indent: line.indent + 2 }))
    case RuleType.orderedList:
      return listLines(node.items, indent, (index) => `${(node.start ?? 1) + index}. `)
    case RuleType.unorderedList:
      return listLines(node.items, indent, () => '• ')
    case RuleType.breakThematic:
      return [{ spans: [{ text: '────────', dim: true }], indent }]
    case RuleType.table:
      return tableLines(node.header, node.cells, indent)
    case RuleType.htmlBlock:
    case RuleType.htmlSelfClosing:
      return 'children' in node && node.children !== undefined ? blocks(node.children, indent) : []
    case RuleType.frontmatter:
    case RuleType.footnote:
    case RuleType.ref:
    case RuleType.refCollection:
    case RuleType.htmlComment:
      return []
    default:
      // An inline node at block level (loose text): one line of it.
      return inlineLines([node], {}, indent)
  }
}

function listLines(items: readonly Node[][], indent: number, marker: (index: number) => string): StyledLine[] {
  const lines: StyledLine[] = []
  items.forEach((item, index) => {
    const bullet = marker(index)
    const inner = indent + bullet.length
    // An item holds inline nodes, then possibly blocks (a nested list, a paragraph).
    const inline: Node[] = []
    const rest: StyledLine[] = []
    for (const node of item) {
      if (isBlock(node)) rest.push(...blockLines(node, inner))
      else inline.push(node)
    }
    const first = inline.length > 0 ? inlineLines(inline, {}, inner) : []
    const body = [...first, ...rest]
    const [head, ...tail] = body.length > 0 ? body : [{ spans: [], indent: inner }]
    lines.push({ spans: [{ text: `${' '.repeat(indent)}${bullet}`, dim: true }, ...stripIndent(head?.spans ?? [], inner)], indent: inner })
    lines.push(...tail)
  })
  return lines
}

/** Nested blocks carry their indent as leading spaces; the first line of an item gets the bullet instead. */
function stripIndent(spans: Span[], indent: number): Span[] {
  const [first, ...rest] = spans
  if (first === undefined || !first.text.startsWith(' '.repeat(indent))) return spans
  return [{ ...first, text: first.text.slice(indent) }, ...rest]
}

function isBlock(node: Node): boolean {
  return node.type === RuleType.paragraph || node.type === RuleType.orderedList || node.type === RuleType.unorderedList
    || node.type === RuleType.codeBlock || node.type === RuleType.blockQuote || node.type === RuleType.heading
    || node.type === RuleType.table || node.type === RuleType.breakThematic
}

const CELL_GAP = ' │ '

/** A table as rows of cells padded to shared column widths (fitted to the room by `wrapLines`), a rule under the header. */
function tableLines(header: readonly Node[][], rows: readonly Node[][][], indent: number): StyledLine[] {
  const cellRows = [header.map((cell) => inline(cell, { bold: true })), ...rows.map((row) => row.map((cell) => inline(cell, {})))]
  const columns = Math.max(...cellRows.map((row) => row.length))
  const widths = Array.from({ length: columns }, (_, column) => Math.max(1, ...cellRows.map((row) => spansWidth(row[column] ?? []))))
  const line = (cells: Span[][], rule = false): StyledLine => ({ spans: joinCells(cells.map((cell, column) => padSpans(cell, widths[column] ?? 0))), indent, table: { cells, widths, rule } })
  const [head = [], ...body] = cellRows
  return [line(head), line(widths.map((w) => [{ text: '─'.repeat(w), dim: true }]), true), ...body.map((cells) => line(cells))]
}

function joinCells(cells: readonly Span[][]): Span[] {
  return cells.flatMap((cell, index) => (index === 0 ? cell : [{ text: CELL_GAP, dim: true }, ...cell]))
}

/**
 * Column widths that fit `room` (the cells and the gaps between them): the widest column gives up
 * a cell at a time, down to 3, so narrow columns (ids, numbers) stay whole. Pure.
 */
function fitWidths(widths: readonly number[], room: number): number[] {
  const fitted = [...widths]
  let total = fitted.reduce((sum, w) => sum + w, 0) + CELL_GAP.length * Math.max(0, fitted.length - 1)
  while (total > room) {
    let widest = 0
    fitted.forEach((w, column) => {
      if (w > (fitted[widest] ?? 0)) widest = column
    })
    if ((fitted[widest] ?? 0) <= 3) break
    fitted[widest] = (fitted[widest] ?? 0) - 1
    total -= 1
  }
  return fitted
}

function fitTableRow(line: StyledLine, columns: number): StyledLine {
  const table = line.table
  if (table === undefined) return line
  const widths = fitWidths(table.widths, columns - line.indent)
  const cells = table.rule === true ? widths.map((w) => [{ text: '─'.repeat(w), dim: true }]) : widths.map((w, column) => padSpans(cutSpans(table.cells[column] ?? [], w), w))
  const gap: Span = { text: table.rule === true ? '─┼─' : CELL_GAP, dim: true }
  const spans = cells.flatMap((cell, index) => (index === 0 ? cell : [gap, ...cell]))
  return { spans: line.indent > 0 ? [{ text: ' '.repeat(line.indent) }, ...spans] : spans, indent: line.indent }
}

function spansWidth(spans: readonly Span[]): number {
  return spans.reduce((sum, span) => sum + width(span.text), 0)
}

function padSpans(spans: Span[], to: number): Span[] {
  const missing = to - spansWidth(spans)
  return missing > 0 ? [...spans, { text: ' '.repeat(missing) }] : spans
}

/** The spans in at most `to` columns, ending in `…` when cut. */
function cutSpans(spans: readonly Span[], to: number): Span[] {
  if (spansWidth(spans) <= to) return [...spans]
  const kept: Span[] = []
  let room = Math.max(0, to - 1)
  for (const span of spans) {
    if (room === 0) break
    const text = [...span.text].slice(0, room).join('')
    kept.push({ ...span, text })
    room -= width(text)
  }
  return [...kept, { text: '…', dim: true }]
}

/** Inline nodes as lines: a hard line break starts a new one. Indented by `indent` spaces. */
function inlineLines(nodes: readonly Node[], style: Style, indent: number): StyledLine[] {
  const lines: StyledLine[] = [{ spans: [], indent }]
  for (const span of inline(nodes, style)) {
    const parts = span.text.split('\n')
    parts.forEach((text, index) => {
      if (index > 0) lines.push({ spans: [], indent })
      if (text !== '') lines.at(-1)?.spans.push({ ...span, text })
    })
  }
  const pad = ' '.repeat(indent)
  return lines.map((line) => (indent === 0 ? line : { ...line, spans: [{ text: pad }, ...line.spans] }))
}

function inline(nodes: readonly Node[], style: Style): Span[] {
  return nodes.flatMap((node): Span[] => {
    switch (node.type) {
      case RuleType.text:
        return [{ ...style, text: node.text }]
      case RuleType.textFormatted:
        return inline(node.children, { ...style, ...formatStyle(node.tag) })
      case RuleType.codeInline:
        return [{ ...style, text: node.text, color: CODE_COLOR }]
      case RuleType.link: {
        const text = inline(node.children, { ...style, underline: true })
        const shown = text.map((span) => span.text).join('')
        return node.target === null || node.target === shown ? text : [...text, { text: ` (${node.target})`, dim: true }]
      }
      case RuleType.image:
        return [{ ...style, text: `[image${node.alt === undefined || node.alt === '' ? '' : `: ${node.alt}`}]`, dim: true }]
      case RuleType.breakLine:
        return [{ text: '\n' }]
      case RuleType.gfmTask:
        return [{ ...style, text: node.completed ? '[x] ' : '[ ] ' }]
      case RuleType.footnoteReference:
        return [{ ...style, text: `[${node.text}]` }]
      case RuleType.htmlBlock:
      case RuleType.htmlSelfClosing:
        return 'children' in node && node.children !== undefined ? inline(node.children, style) : []
      default:
        // A block inside inline content (rare): flatten its lines.
        return blockLines(node, 0).flatMap((line, index) => (index === 0 ? line.spans : [{ text: '\n' }, ...line.spans]))
    }
  })
}

function formatStyle(tag: string): Style {
  if (tag === 'strong' || tag === 'b') return { bold: true }
  if (tag === 'em' || tag === 'i') return { italic: true }
  if (tag === 'del' || tag === 's') return { strikethrough: true }
  return {}
}

function trimBlank(lines: StyledLine[]): StyledLine[] {
  const blank = (line: StyledLine | undefined) => line !== undefined && line.spans.every((span) => span.text.trim() === '')
  while (blank(lines[0])) lines.shift()
  while (blank(lines.at(-1))) lines.pop()
  return lines
}

/** A span's width in columns: one per code point (wide characters are rare in agent replies). */
function width(text: string): number {
  return [...text].length
}

/**
 * Wraps each line to `columns`, breaking between words; a continuation starts at the line's
 * indent. A word longer than the room left on an empty line is cut (nothing else fits it). Pure.
 */
export function wrapLines(lines: readonly StyledLine[], columns: number): StyledLine[] {
  const room = Math.max(columns, 8)
  // a table row is fitted to the width as a row (its columns shrink), never wrapped word by word
  return lines.flatMap((line) => (line.table === undefined ? wrapLine(line, room) : [fitTableRow(line, room)]))
}

function wrapLine(line: StyledLine, columns: number): StyledLine[] {
  const indent = Math.min(line.indent, Math.floor(columns / 2))
  const out: StyledLine[] = []
  let current: Span[] = []
  let used = 0
  const startContinuation = (): void => {
    out.push({ spans: current, indent: line.indent })
    current = indent > 0 ? [{ text: ' '.repeat(indent) }] : []
    used = indent
  }
  for (const span of line.spans) {
    // Words and the blanks between them, each kept with its span's style.
    for (const piece of span.text.match(/\s+|\S+/g) ?? []) {
      const blank = /^\s/.test(piece)
      if (blank) {
        if (used + width(piece) > columns) startContinuation()
        else if (used > indent || current.length === 0 || out.length === 0) {
          current.push({ ...span, text: piece })
          used += width(piece)
        }
        continue
      }
      let word = piece
      if (used + width(word) > columns && used > indent) startContinuation()
      while (width(word) > columns - used) {
        const cut = [...word].slice(0, columns - used).join('')
        current.push({ ...span, text: cut })
        word = [...word].slice(columns - used).join('')
        startContinuation()
      }
      if (word !== '') {
        current.push({ ...span, text: word })
        used += width(word)
      }
    }
  }
  out.push({ spans: current, indent: line.indent })
  return out.map((wrapped) => ({ ...wrapped, spans: trimTrailingBlank(wrapped.spans) }))
}

function trimTrailingBlank(spans: Span[]): Span[] {
  const result = [...spans]
  while (result.length > 0 && (result.at(-1)?.text.trim() ?? '') === '' && result.length > 1) result.pop()
  return result
}
