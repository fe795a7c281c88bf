import fc from 'fast-check'
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
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

  it('property: any model output renders to the renderer\'s own elements, safe links only', async () => {
    await fc.assert(fc.asyncProperty(modelMarkdown, async (source) => {
      expect(markdownSafetyProblems(await render(source))).toEqual([])
    }), { numRuns: 200 })
  })
})
