import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The fenced code blocks of README.md and docs/*.md, and what each fence means (CONTRIBUTING.md
 * says the same for people):
 *
 * - ```ts / ```tsx: a complete module (its imports included) that must typecheck against the built
 *   package; ```ts run / ```tsx run: the same, and a program the check runs with node in a fresh
 *   directory (it must exit 0; never mark one that needs an agent CLI, a network or a terminal).
 * - ```ts mirrors=<module>:<Name>: a module declaring a type `Name` that restates the package's
 *   export `Name` of `<module>` (e.g. `mirrors=chatrail:TurnTrace`): the check also proves the two
 *   have the same keys and are assignable both ways, so the restatement cannot drift.
 * - ```ts-signature: TypeScript-like text that is not a module: a shape written loosely (an interface
 *   without its imports, a wire format) or a line for a runtime the check has no types for (Bun,
 *   Deno). Shown, not compiled.
 * - ```sh, ```text (or a bare fence), ```yaml, ```json, ```sql, ```mermaid: not TypeScript.
 *
 * A fence whose language is not one of these fails the check, so a ```typescript or ```js block
 * cannot slip past it.
 */

export type BlockKind = 'module' | 'program' | 'signature' | 'other'

export type DocBlock = {
  /** The doc's path relative to the checkout, e.g. docs/server.md. */
  file: string
  /** 1-based line of the opening fence: the block's code line k is the doc's line `line + k`. */
  line: number
  /** Spaces before the fence (a block inside a list item): the code's columns are shifted by it. */
  indent: number
  /** The info string's first word ('' for a bare fence) and the words after it. */
  lang: string
  flags: string[]
  kind: BlockKind
  code: string
}

export const typescriptLanguages = ['ts', 'tsx']
// `svelte`: a component file (docs/svelte.md), shown, not compiled: tsc has no Svelte (its ts blocks mount the typed exports instead).
const otherLanguages = ['', 'ts-signature', 'sh', 'text', 'yaml', 'json', 'sql', 'mermaid', 'svelte']
export const knownLanguages = [...typescriptLanguages, ...otherLanguages]
const knownFlags = ['run']
const mirrorsFlag = /^mirrors=([\w@./-]+):([A-Za-z_$][\w$]*)$/

/** The export a block's `mirrors=<module>:<Name>` flag names, if it has one. */
export function mirrorsOf(block: DocBlock): { module: string; name: string } | undefined {
  for (const flag of block.flags) {
    const found = mirrorsFlag.exec(flag)
    if (found !== null) return { module: found[1] ?? '', name: found[2] ?? '' }
  }
  return undefined
}

/** The docs the check reads: README.md and every docs/*.md, in a fixed order. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)
  return ['README.md', ...docs]
}

function kindOf(lang: string, flags: string[]): BlockKind {
  if (lang === 'ts-signature') return 'signature'
  if (!typescriptLanguages.includes(lang)) return 'other'
  return flags.includes('run') ? 'program' : 'module'
}

/** Every fenced block of one markdown text (``` or ~~~ fences, indented ones inside lists included). */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  let open: { fence: string; indent: number; line: number; lang: string; flags: string[]; body: string[] } | undefined
  lines.forEach((text, index) => {
    if (open === undefined) {
      const start = /^( *)(`{3,}|~{3,})\s*(.*)$/.exec(text)
      if (start === null) return
      const [lang = '', ...flags] = (start[3] ?? '').trim().split(/\s+/).filter((word) => word !== '')
      open = { fence: start[2] ?? '```', indent: start[1]?.length ?? 0, line: index + 1, lang, flags, body: [] }
      return
    }
    const close = /^ *(`{3,}|~{3,})\s*$/.exec(text)
    if (close !== null && close[1]?.[0] === open.fence[0] && (close[1]?.length ?? 0) >= open.fence.length) {
      blocks.push({ file, line: open.line, indent: open.indent, lang: open.lang, flags: open.flags, kind: kindOf(open.lang, open.flags), code: open.body.join('\n') })
      open = undefined
      return
    }
    // A fence indented inside a list item: its lines carry the same indent.
    open.body.push(text.startsWith(' '.repeat(open.indent)) ? text.slice(open.indent) : text.trimStart())
  })
  return blocks
}

export function readDocBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((file) => extractBlocks(file, readFileSync(join(root, file), 'utf8')))
}

/** Why a block's fence is not acceptable, or undefined when it is. */
export function fenceProblem(block: DocBlock): string | undefined {
  if (!knownLanguages.includes(block.lang)) {
    return `fence language "${block.lang}" is not one the docs check knows (${knownLanguages.filter((lang) => lang !== '').join(', ')}, or a bare fence); use ts/tsx for a module, ts-signature for a shape`
  }
  const unknown = block.flags.filter((flag) => !knownFlags.includes(flag) && !mirrorsFlag.test(flag))
  if (unknown.length > 0) return `unknown fence flag ${unknown.map((flag) => `"${flag}"`).join(', ')} (known: run, mirrors=<module>:<Name>)`
  if (block.flags.length > 0 && !typescriptLanguages.includes(block.lang)) return `only a ts or tsx block takes flags (run, mirrors=…)`
  // TypeScript under a text fence would escape the check.
  if (block.kind === 'other' && /^import .+ from ['"][^'"]+['"]/m.test(block.code)) {
    return `this ${block.lang === '' ? 'bare' : block.lang} block holds TypeScript imports; fence it ts (checked) or ts-signature (a shape)`
  }
  return undefined
}

/**
 * What the check appends to a `mirrors=` block: both directions of assignability (an error names
 * the field that differs) and the keys each side has that the other lacks. Appended after the
 * block's last line, so positions inside the block stay the doc's.
 */
export function mirrorCheck(block: DocBlock): string {
  const mirrored = mirrorsOf(block)
  if (mirrored === undefined) return ''
  const { module, name } = mirrored
  return [
    '',
    `import type { ${name} as Exported__ } from '${module}'`,
    `declare const restated__: ${name}`,
    'declare const exported__: Exported__',
    `export const restatedIsExported__: Exported__ = restated__`,
    `export const exportedIsRestated__: ${name} = exported__`,
    `export const keysOnlyOneSideHas__: Record<Exclude<keyof Exported__, keyof ${name}> | Exclude<keyof ${name}, keyof Exported__>, never> = {}`,
  ].join('\n')
}

/** The file name a block is written to in the check's project: unique and traceable to its doc. */
export function moduleName(block: DocBlock): string {
  const base = block.file.replace(/^docs\//, '').replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')
  return `${base}-L${block.line}.${block.lang}`
}
