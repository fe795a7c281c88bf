import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { compile } from 'svelte/compiler'
import { describe, expect, it } from 'vitest'

/**
 * chatrail/svelte's `.svelte` files are outside tsc (and svelte-check is not a dependency): each is
 * compiled here by the Svelte it peers with, for the browser and for the server, and any warning
 * (accessibility, runes misuse, a reference that only captures an initial value) fails. They ship
 * as sources (dist/svelte/, beside the modules tsup builds from renderers/svelte/*.ts), so each may
 * import only its siblings: what it names from src/ comes through kit.ts, parts-kit.ts or props.ts.
 */
const folder = fileURLToPath(new URL('../../renderers/svelte/', import.meta.url))
const files = readdirSync(folder).filter((name) => name.endsWith('.svelte')).sort()
const siblings = new Set(readdirSync(folder).map((name) => name.replace(/\.ts$/, '.js')))

describe('chatrail/svelte components compile cleanly', () => {
  it('finds the components', () => {
    expect(files).toEqual(expect.arrayContaining(['ChatSession.svelte', 'MessageList.svelte', 'Composer.svelte', 'DialogCard.svelte', 'ComponentPart.svelte', 'ActionApprovalCard.svelte']))
  })

  it.each(files)('%s compiles for the browser and the server with no warning', (file) => {
    const source = readFileSync(`${folder}${file}`, 'utf8')
    for (const generate of ['client', 'server'] as const) {
      const { warnings } = compile(source, { filename: file, generate, runes: true })
      expect(warnings.map((warning) => `${generate} ${warning.code} at line ${warning.start?.line ?? '?'}: ${warning.message}`)).toEqual([])
    }
  })

  it.each(files)('%s imports only its siblings in the package and Svelte itself', (file) => {
    const source = readFileSync(`${folder}${file}`, 'utf8')
    const imported = [...source.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1] as string)
    expect(imported.filter((path) => !(path === 'svelte' || (path.startsWith('./') && siblings.has(path.slice(2)))))).toEqual([])
  })
})
