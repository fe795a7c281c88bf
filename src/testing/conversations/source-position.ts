import { isMap, isPair, isScalar, isSeq } from 'yaml'
import type { Document, LineCounter, Node } from 'yaml'

/** A 1-based line and column in a source file. */
export interface SourcePosition { line: number; column: number }

/** Where a value or key was found: `value` points at the value, `key` at its key (for unknown keys). */
export type PositionTarget = 'value' | 'key'

/**
 * Maps a data path (as zod reports it) back to a place in the YAML source. A path that runs past
 * the document (a missing key) resolves to the deepest node that exists, so "missing `turns`"
 * points at the mapping that should hold it. Pure: reads the document, never changes it.
 */
export function positionOf(
  document: Document,
  lineCounter: LineCounter,
  path: readonly PropertyKey[],
  target: PositionTarget = 'value',
): SourcePosition {
  let node: unknown = document.contents
  let offset = rangeStart(node) ?? 0
  for (const [index, segment] of path.entries()) {
    const next = childOf(node, segment, index === path.length - 1 ? target : 'value')
    if (next === undefined) break
    node = next.node
    offset = next.offset ?? offset
  }
  const { line, col } = lineCounter.linePos(offset)
  return { line, column: col }
}

function childOf(
  node: unknown,
  segment: PropertyKey,
  target: PositionTarget,
): { node: unknown; offset: number | undefined } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment))
    if (pair === undefined) return undefined
    // An unknown key is reported at the key itself; a bad value at the value (or the key when the value is empty).
    if (target === 'key') return { node: pair.value, offset: rangeStart(pair.key) }
    return { node: pair.value, offset: rangeStart(pair.value) ?? rangeStart(pair.key) }
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment]
    if (item === undefined) return undefined
    return { node: item, offset: rangeStart(item) }
  }
  return undefined
}

function rangeStart(node: unknown): number | undefined {
  if (node === null || typeof node !== 'object' || !('range' in node)) return undefined
  const range = (node as Node).range
  return Array.isArray(range) ? range[0] : undefined
}
