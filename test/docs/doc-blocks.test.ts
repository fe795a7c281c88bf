import { describe, expect, it } from 'vitest'
import { extractBlocks, fenceProblem, mirrorCheck, mirrorsOf, moduleName } from './doc-blocks.js'

// How the docs snippet check reads markdown: which blocks it finds, where, and which fences it refuses.

const doc = [
  '# Title', // 1
  '', // 2
  '```ts', // 3
  "import { defineChat } from 'chatrail'", // 4
  '```', // 5
  '- a list item:', // 6
  '', // 7
  '  ```ts run', // 8
  "  import { route } from 'chatrail'", // 9
  '    const indented = 1', // 10
  '  ```', // 11
  '~~~ts-signature', // 12
  '{ type, data }', // 13
  '~~~', // 14
  '````text', // 15
  '```ts', // 16: inside a longer fence, not a fence of its own
  '````', // 17
  '```', // 18
  'plain output', // 19
  '```', // 20
].join('\n')

describe('extractBlocks', () => {
  const blocks = extractBlocks('docs/x.md', doc)

  it('finds every fenced block with its fence line, language, flags and kind', () => {
    expect(blocks.map(({ line, lang, flags, kind }) => ({ line, lang, flags, kind }))).toEqual([
      { line: 3, lang: 'ts', flags: [], kind: 'module' },
      { line: 8, lang: 'ts', flags: ['run'], kind: 'program' },
      { line: 12, lang: 'ts-signature', flags: [], kind: 'signature' },
      { line: 15, lang: 'text', flags: [], kind: 'other' },
      { line: 18, lang: '', flags: [], kind: 'other' },
    ])
  })

  it('strips a list item\'s indent from its block and records it for column mapping', () => {
    expect(blocks[1]?.indent).toBe(2)
    expect(blocks[1]?.code).toBe("import { route } from 'chatrail'\n  const indented = 1")
    expect(blocks[3]?.code).toBe('```ts')
  })

  it('names each module after its doc and fence line', () => {
    expect(blocks.slice(0, 2).map(moduleName)).toEqual(['x-L3.ts', 'x-L8.ts'])
    expect(moduleName({ ...blocks[0]!, file: 'README.md', lang: 'tsx' })).toBe('README-L3.tsx')
  })
})

describe('fenceProblem', () => {
  const block = (fence: string, code = 'x'): ReturnType<typeof extractBlocks>[number] => {
    const [found] = extractBlocks('docs/x.md', `${fence}\n${code}\n\`\`\``)
    if (found === undefined) throw new Error('no block')
    return found
  }

  it('accepts the fences CONTRIBUTING.md lists', () => {
    for (const fence of ['```ts', '```tsx', '```ts run', '```tsx run', '```ts mirrors=chatrail:TurnTrace', '```ts-signature', '```sh', '```text', '```', '```yaml', '```json', '```sql', '```mermaid']) {
      expect(fenceProblem(block(fence)), fence).toBeUndefined()
    }
  })

  it('refuses a TypeScript-ish language the check would skip', () => {
    expect(fenceProblem(block('```typescript'))).toMatch(/fence language "typescript" is not one the docs check knows/)
    expect(fenceProblem(block('```js'))).toMatch(/"js"/)
  })

  it('refuses unknown flags, and flags on a block that is not ts/tsx', () => {
    expect(fenceProblem(block('```ts runn'))).toMatch(/unknown fence flag "runn"/)
    expect(fenceProblem(block('```text run'))).toMatch(/only a ts or tsx block takes flags/)
    expect(fenceProblem(block('```ts mirrors=TurnTrace'))).toMatch(/unknown fence flag "mirrors=TurnTrace"/)
  })

  it('refuses TypeScript imports under a text or bare fence', () => {
    expect(fenceProblem(block('```', "import { defineChat } from 'chatrail'"))).toMatch(/bare block holds TypeScript imports/)
    expect(fenceProblem(block('```text', "import x from 'y'"))).toMatch(/text block holds TypeScript imports/)
    expect(fenceProblem(block('```sh', 'npm install chatrail'))).toBeUndefined()
  })
})

describe('mirrors=', () => {
  it('names the export a block restates and appends the two-way check after the block', () => {
    const [found] = extractBlocks('docs/x.md', '```ts mirrors=chatrail/store:Lease\ntype Lease = { token: number }\n```')
    if (found === undefined) throw new Error('no block')
    expect(mirrorsOf(found)).toEqual({ module: 'chatrail/store', name: 'Lease' })
    const check = mirrorCheck(found)
    expect(check).toContain("import type { Lease as Exported__ } from 'chatrail/store'")
    expect(check).toContain('export const restatedIsExported__: Exported__ = restated__')
    expect(check).toContain('export const exportedIsRestated__: Lease = exported__')
    expect(check.startsWith('\n')).toBe(true)
  })

  it('appends nothing to a block without the flag', () => {
    const [found] = extractBlocks('docs/x.md', '```ts\nconst a = 1\n```')
    if (found === undefined) throw new Error('no block')
    expect(mirrorsOf(found)).toBeUndefined()
    expect(mirrorCheck(found)).toBe('')
  })
})
