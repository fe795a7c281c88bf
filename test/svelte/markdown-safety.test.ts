import { mkdirSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import esbuildSvelte from 'esbuild-svelte'
import fc from 'fast-check'
import type { Component } from 'svelte'
import { render } from 'svelte/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { messageLabels } from '../../src/view/message-labels.js'
import type { MarkdownProps, PlanMarkdownProps } from '../../renderers/svelte/props.js'
import { markdownSafetyProblems, modelMarkdown } from '../bindings/markdown-safety.js'

// chatrail/svelte's markdown chunk (markdown-to-jsx's parser, its tree drawn by Markdown.svelte and
// MarkdownNodes.svelte, never `{@html}`), compiled for the server and rendered to HTML: whatever the
// model writes, no raw HTML, no unsafe URL, no image (test/bindings/markdown-safety.ts). The
// browser suite checks the same answer on screen.
const plugin = esbuildSvelte as unknown as typeof esbuildSvelte.default
const outdir = fileURLToPath(new URL('../../test-output/svelte-markdown-safety/', import.meta.url))
let Markdown: Component<MarkdownProps>
let PlanMarkdown: Component<PlanMarkdownProps>

beforeAll(async () => {
  mkdirSync(outdir, { recursive: true })
  await build({
    entryPoints: ['Markdown', 'PlanMarkdown'].map((name) => fileURLToPath(new URL(`../../renderers/svelte/${name}.svelte`, import.meta.url))),
    bundle: true, format: 'esm', platform: 'node', outdir, logLevel: 'silent', packages: 'external',
    plugins: [plugin({ compilerOptions: { css: 'external', generate: 'server' } })],
  })
  Markdown = ((await import(pathToFileURL(`${outdir}Markdown.js`).href)) as { default: Component<MarkdownProps> }).default
  PlanMarkdown = ((await import(pathToFileURL(`${outdir}PlanMarkdown.js`).href)) as { default: Component<PlanMarkdownProps> }).default
}, 60_000)

const html = (source: string): string => render(Markdown, { props: { source, words: messageLabels } }).body

describe('chatrail/svelte markdown', () => {
  it('draws a table, a labelled code block with its copy button, and leaves a javascript: link and raw HTML inert', () => {
    const out = html('## Options\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```sh\nls\n```\n\n[bad](javascript:alert(1)) [ok](https://example.com) <b>raw</b>')
    expect(out).toMatch(/<h3>.*Options.*<\/h3>/)
    expect(out).toMatch(/<div data-chatrail-table(="")? tabindex="0"><table>/)
    expect(out).toMatch(/<span data-chatrail-code-lang(="")?>sh<\/span>/)
    expect(out).toContain('aria-label="Copy sh code"')
    expect(out).toContain('&lt;b>raw&lt;/b>')
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">')
    expect(out).not.toContain('javascript:')
  })

  it('headings take the outline\'s next levels without gaps (chatrail/view\'s rule, as in React and Vue)', () => {
    const out = html('# Top\n\n### Third\n\n> ###### Quoted')
    expect([...out.replace(/<!--.*?-->/g, '').matchAll(/<(h[1-6])>([^<]*)<\/h[1-6]>/g)].map((match) => [match[1], match[2]])).toEqual([['h3', 'Top'], ['h4', 'Third'], ['h5', 'Quoted']])
  })

  it('a plan: headings from h4 down, copy buttons in the app\'s words', () => {
    const labels = { copyCode: 'Code kopieren', copyCodeIn: (lang: string) => `${lang}-Code kopieren` }
    const out = render(PlanMarkdown, { props: { source: '# Plan\n\n## Steps\n\n```sh\nls\n```\n\n```\nplain\n```', labels } }).body
    expect([...out.replace(/<!--.*?-->/g, '').matchAll(/<(h[1-6])>([^<]*)<\/h[1-6]>/g)].map((match) => [match[1], match[2]])).toEqual([['h4', 'Plan'], ['h5', 'Steps']])
    expect(out).toContain('aria-label="sh-Code kopieren"')
    expect(out).toContain('aria-label="Code kopieren"')
    expect(out).not.toContain('Copy code')
  })

  it('property: any model output renders to the renderer\'s own elements, safe links only', () => {
    fc.assert(fc.property(modelMarkdown, (source) => {
      expect(markdownSafetyProblems(html(source))).toEqual([])
    }), { numRuns: 200 })
  })
})
