import { describe, expect, it } from 'vitest'
import { measureSvelteBinding } from './svelte-size.js'

// Issue 34's budget: each web binding's own code ≤ 6 kB gzip, the view model counted once, apart.
// Measured as an app ships chatrail/svelte (svelte-size.ts: esbuild-svelte's client output,
// minified, split): the entry and what it imports statically. The message UI (the welcome's chips,
// the event bar, the error banner, a message's actions, edit box and tool cards, the reply
// announcer), the dialog card and the answer's component views are chunks loaded on first use, as
// in chatrail/react. 16.1 kB as one chunk; 5.79 kB split (the chunks: 5.0, 3.3 and 5.8 kB);
// 5.93 kB with the clear error for a missing source; 5.90 kB with the view's message attributes and edit rule;
// 5.92 kB with chatrail/react's markdown, "Show more", reasoning, sources, Jump to latest (all in
// lazy chunks: the reply body with the markdown renderer, the message UI) and the follow after a send.
describe('chatrail/svelte size', () => {
  it('its entry is under 6 kB gzip, imports Svelte and the view model only, and leaves the cards to lazy chunks', async () => {
    const size = await measureSvelteBinding()
    expect(size.gzipBytes).toBeLessThan(6_000)
    expect(size.imports.filter((path) => !path.startsWith('svelte') && path !== 'chatrail/view')).toEqual([])
    expect(size.imports.filter((path) => /^(react|vue)(\/|$)/.test(path))).toEqual([])
    const entryFiles = size.inputs.map((file) => file.split('/').pop())
    expect(entryFiles).toEqual(expect.arrayContaining(['ChatSession.svelte', 'MessageList.svelte', 'Composer.svelte', 'DialogCard.svelte']))
    expect(entryFiles.filter((file) => ['DialogCardContent.svelte', 'ComponentPart.svelte', 'MessageActions.svelte', 'EventButtonsContent.svelte'].includes(file ?? ''))).toEqual([])
    const lazyFiles = size.lazy.flatMap((chunk) => chunk.inputs.map((file) => file.split('/').pop()))
    expect(lazyFiles).toEqual(expect.arrayContaining(['DialogCardContent.svelte', 'ComponentPart.svelte', 'MessageActions.svelte', 'EventButtonsContent.svelte']))
    // the markdown renderer (markdown-to-jsx's parser with it), the reply extras and Jump to latest are never in the entry
    const later = ['ReplyBody.svelte', 'Markdown.svelte', 'MarkdownNodes.svelte', 'CodeBlock.svelte', 'ReasoningSection.svelte', 'SourceList.svelte', 'TruncatedOutput.svelte', 'JumpToLatest.svelte']
    expect(lazyFiles).toEqual(expect.arrayContaining(later))
    expect(entryFiles.filter((file) => later.includes(file ?? ''))).toEqual([])
    expect(size.inputs.filter((file) => file.includes('markdown-to-jsx'))).toEqual([])
  }, 60_000)
})
