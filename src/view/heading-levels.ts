/**
 * Which level each markdown heading of an answer or a plan is drawn at, the same in every web
 * binding (issue 34): the levels the document uses, in order, from the surrounding outline's next
 * level on, without gaps and never above 6 (`# A` and `### B` under a base of 3 become h3 and h4).
 * Structural over the markdown parser's AST (markdown-to-jsx, an optional peer each binding loads
 * in its markdown chunk), so this file imports no parser and no framework.
 */

/** A node of the parsed markdown as far as headings go: a heading's `level`, nested `children` or list `items`. */
export interface MarkdownHeadingNode {
  readonly type: unknown
  readonly level?: number
  readonly children?: unknown
  readonly items?: unknown
}

/** Pure: every heading level used anywhere in `nodes` (headings can sit in quotes and lists); `headingType` is the parser's heading rule. */
export function headingLevelsOf(nodes: readonly MarkdownHeadingNode[], headingType: unknown): Set<number> {
  const levels = new Set<number>()
  const visit = (node: MarkdownHeadingNode): void => {
    if (node.type === headingType && typeof node.level === 'number') levels.add(node.level)
    const nested: unknown[] = [
      ...(Array.isArray(node.children) ? node.children : []),
      ...(Array.isArray(node.items) ? node.items.flat() : []),
    ]
    for (const child of nested) if (typeof child === 'object' && child !== null && 'type' in child) visit(child)
  }
  nodes.forEach(visit)
  return levels
}

/** Pure: source level → rendered level: the used levels, in order, from `base` on (1, 3 → base, base + 1), at most 6. */
export function headingMap(levels: ReadonlySet<number>, base: number): Map<number, number> {
  const from = Math.min(Math.max(Math.trunc(base), 1), 6)
  return new Map([...levels].sort((a, b) => a - b).map((level, i) => [level, Math.min(from + i, 6)]))
}

/** Pure: the map for a parsed document: `headingMap(headingLevelsOf(nodes, headingType), base)`. */
export function headingLevels(nodes: readonly MarkdownHeadingNode[], headingType: unknown, base: number): Map<number, number> {
  return headingMap(headingLevelsOf(nodes, headingType), base)
}
