/**
 * What chatrail/svelte's markdown chunk (Markdown.svelte and the components under it) takes from
 * outside: markdown-to-jsx's parser (its renderer-free `html` build: the AST only, the HTML
 * compiler is never called) and the highlighter, apart from kit.ts so that the entry does not carry
 * them (dist/svelte/markdown-kit.js in the package).
 */
import type { CodeToken } from '../../src/view/code-highlight.js'

export { RuleType, parser } from 'markdown-to-jsx/html'
export type { MarkdownToJSX } from 'markdown-to-jsx/html'
export { messageLabels } from '../../src/view/message-labels.js'
export { headingLevels } from '../../src/view/heading-levels.js'
export type { CodeToken } from '../../src/view/code-highlight.js'

type Highlight = (code: string, language: string) => CodeToken[] | undefined
let loaded: Highlight | undefined
let loading: Promise<Highlight | undefined> | undefined

/** The highlighter if it is already in (a later block draws highlighted at once). */
export function loadedHighlight(): Highlight | undefined {
  return loaded
}

/**
 * The highlighter (chatrail/view's code-highlight.ts: lowlight, no framework in it), a chunk of its
 * own, requested the first time a block with a language renders; undefined if it failed to load.
 */
export function loadHighlight(): Promise<Highlight | undefined> {
  loading ??= import('../../src/view/code-highlight.js').then((module) => (loaded = module.highlightCode), () => undefined)
  return loading
}

/** The inline tags the AST's formatted text may name; anything else is drawn as a plain span. */
export const formattedTags: ReadonlySet<string> = new Set(['strong', 'em', 'del', 's', 'mark', 'sub', 'sup', 'code', 'kbd'])
