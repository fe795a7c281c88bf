import fc from 'fast-check'
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import type { Dialog } from '../../src/contract/dialog.js'
import { dialogLabels } from '../../src/view/dialog-labels.js'
import { messageLabels } from '../../src/view/message-labels.js'
import { DialogCardContent } from '../../renderers/vue/dialog-ui.js'
import type { MarkdownRenderer } from '../../renderers/vue/markdown.js'
import { MarkdownContent } from '../../renderers/vue/markdown-content.js'
import { CopyButton } from '../../renderers/vue/message-actions.js'
import { markdownSafetyProblems, modelMarkdown } from '../bindings/markdown-safety.js'

// chatrail/vue's markdown chunk (markdown-to-jsx's Vue output, configured as chatrail/react's
// renderer), rendered to HTML on the server: whatever the model writes, no raw HTML, no unsafe URL,
// no image (test/bindings/markdown-safety.ts). The browser suite checks the same answer on screen.
const render = (source: string): Promise<string> =>
  renderToString(createSSRApp({ render: () => h(MarkdownContent, { source, headingLevel: 3, streaming: false, copyButton: CopyButton }) }))

describe('chatrail/vue markdown', () => {
  it('draws a table, a labelled code block with its copy button, and leaves a javascript: link and raw HTML inert', async () => {
    const html = await render('| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```sh\nls\n```\n\n[bad](javascript:alert(1)) <b>raw</b>')
    expect(html).toMatch(/<div data-chatrail-table(="")? tabindex="0"><table>/)
    expect(html).toMatch(/<span data-chatrail-code-lang(="")?>sh<\/span>/)
    expect(html).toContain('aria-label="Copy sh code"')
    expect(html).toContain('&lt;b&gt;raw&lt;/b&gt;')
    expect(html).not.toContain('javascript:')
  })

  it('headings take the outline\'s next levels without gaps (chatrail/view\'s rule, as in React and Svelte)', async () => {
    const html = await render('# Top\n\n### Third\n\n> ###### Quoted')
    expect([...html.matchAll(/<(h[1-6])>([^<]*)<\/h[1-6]>/g)].map((match) => [match[1], match[2]])).toEqual([['h3', 'Top'], ['h4', 'Third'], ['h5', 'Quoted']])
  })

  it('a plan in its dialog card: headings from h4 down, copy buttons in the app\'s words (pending and answered)', async () => {
    const plan: Dialog = { toolId: 't1', kind: 'plan', prompt: '# Plan\n\n## Steps\n\n```sh\nls\n```\n\n```\nplain\n```', options: [], multiSelect: false, answerable: true }
    const codeWords = { ...messageLabels, copyCode: 'Code kopieren', copyCodeIn: (lang: string) => `${lang}-Code kopieren` }
    const markdown: MarkdownRenderer = (source, options = {}) => h(MarkdownContent, { source, headingLevel: options.headingLevel ?? 3, streaming: false, copyButton: CopyButton, labels: options.labels })
    const card = (dialog: Dialog): Promise<string> => renderToString(createSSRApp({
      render: () => h(DialogCardContent, { id: 'card', dialog, words: dialogLabels, deliver: () => Promise.resolve(), markdown, codeWords }),
    }))
    for (const html of [await card(plan), await card({ ...plan, outcome: { dismissed: false, approved: true } })]) {
      expect([...html.matchAll(/<(h[4-6])>([^<]*)<\/h[4-6]>/g)].map((match) => [match[1], match[2]])).toEqual([['h4', 'Plan'], ['h5', 'Steps']])
      expect(html).toContain('aria-label="sh-Code kopieren"')
      expect(html).toContain('aria-label="Code kopieren"')
      expect(html).not.toContain('Copy code')
    }
  })

  it('property: any model output renders to the renderer\'s own elements, safe links only', async () => {
    await fc.assert(fc.asyncProperty(modelMarkdown, async (source) => {
      expect(markdownSafetyProblems(await render(source))).toEqual([])
    }), { numRuns: 200 })
  })
})
