/**
 * Untrusted values (a tool's input, from a transcript or a rollout) can be nested thousands of
 * levels deep. `JSON.parse` takes that, but every recursive walk after it (JSON.stringify, a
 * renderer, a deep-equal) overflows the stack. Readers cap the depth once, here, iteratively:
 * containers nested deeper than `maxDepth` are replaced by a short string saying so, so nothing
 * downstream ever sees a value deeper than the cap (issue 15 item 7). Pure; no recursion.
 */

export const MAX_VALUE_DEPTH = 64

export function elidedText(maxDepth: number): string {
  return `[nested deeper than ${maxDepth} levels; elided]`
}

export interface CappedValue {
  value: unknown
  /** True when something was elided (the value is then a copy). */
  elided: boolean
}

type Container = Record<string, unknown> | unknown[]

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null
}

function childrenOf(value: Container): Array<[string | number, unknown]> {
  return Array.isArray(value) ? value.map((child, index) => [index, child]) : Object.entries(value)
}

/** The value itself when it is no deeper than `maxDepth` (a top-level container is level 1), else a capped copy. */
export function capDepth(value: unknown, maxDepth = MAX_VALUE_DEPTH): CappedValue {
  if (!isContainer(value) || !deeperThan(value, maxDepth)) return { value, elided: false }
  const root: Container = Array.isArray(value) ? [] : {}
  const stack: Array<[Container, Container, number]> = [[value, root, 1]]
  while (stack.length > 0) {
    const [source, target, level] = stack.pop() as [Container, Container, number]
    for (const [key, child] of childrenOf(source)) {
      let copy: unknown = child
      if (isContainer(child)) {
        if (level + 1 > maxDepth) copy = elidedText(maxDepth)
        else {
          copy = Array.isArray(child) ? [] : {}
          stack.push([child, copy as Container, level + 1])
        }
      }
      // defineProperty, not assignment: a "__proto__" key from JSON stays a plain own property.
      Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true })
    }
  }
  return { value: root, elided: true }
}

function deeperThan(value: Container, maxDepth: number): boolean {
  const stack: Array<[Container, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [container, level] = stack.pop() as [Container, number]
    for (const [, child] of childrenOf(container)) {
      if (!isContainer(child)) continue
      if (level + 1 > maxDepth) return true
      stack.push([child, level + 1])
    }
  }
  return false
}
