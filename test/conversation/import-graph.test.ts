import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The conversation layer's place in the layers (issue 14 §3): it imports only src/contract and
 * its own files, and its own files import each other without a circle (a circle such as
 * definition.ts ↔ definition-schema.ts makes load order matter and the pieces impossible to read
 * one at a time). ESLint's no-restricted-imports guards the first rule on every edit; this test
 * checks the whole graph, type imports included.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Relative imports and re-exports of `file`, resolved to repository paths (`src/contract/x.ts`). */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)]
    .map((match) => match[1] ?? match[2])
    .filter((specifier): specifier is string => specifier !== undefined)
  return specifiers.map((specifier) => relative(root, resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))))
}

function graphOf(dir: string): Map<string, string[]> {
  return new Map(sourceFiles(join(root, dir)).map((file) => [relative(root, file), localImports(file)]))
}

/** Every import circle, each as the path that closes it (`a → b → a`). */
function circles(graph: Map<string, string[]>): string[] {
  const found: string[] = []
  const done = new Set<string>()
  const visit = (node: string, path: string[]): void => {
    const at = path.indexOf(node)
    if (at >= 0) {
      found.push([...path.slice(at), node].join(' → '))
      return
    }
    if (done.has(node) || !graph.has(node)) return
    for (const next of graph.get(node) ?? []) visit(next, [...path, node])
    done.add(node)
  }
  for (const node of graph.keys()) visit(node, [])
  return found
}

describe('src/conversation in the layers', () => {
  const graph = graphOf('src/conversation')

  it('reads a real graph (the check is not vacuous)', () => {
    expect(graph.get('src/conversation/definition-check.ts')).toEqual(expect.arrayContaining(['src/conversation/definition-schema.ts']))
    expect([...graph.values()].flat()).toContain('src/contract/live-agent-adapter.ts')
  })

  it('imports only src/contract and its own files', () => {
    const outside = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => !target.startsWith('src/conversation/') && !target.startsWith('src/contract/')).map((target) => `${file} → ${target}`),
    )
    expect(outside).toEqual([])
  })

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([])
  })

  it('finds a circle when there is one', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a → b → c → a'])
  })
})
