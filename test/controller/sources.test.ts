import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_SOURCES, sourceChunk, sourcesOf } from '../../src/controller/index.js'
import type { StreamChunk } from '../../src/contract/index.js'
import { setup } from './harness.js'

// Issue #31 item 10: sources the adapter sends reach the reply (`metadata.sources`), so a renderer
// can list them. A source travels as an empty text chunk with `metadata.source`.
describe('cited sources', () => {
  it('gathers source chunks into metadata.sources in arrival order, without touching the text', async () => {
    const { controller } = setup([[
      { type: 'text', content: 'See ' },
      sourceChunk({ url: 'https://example.com/a', title: 'A' }),
      { type: 'text', content: 'these.' },
      sourceChunk({ url: 'https://example.com/b' }),
      { type: 'done' },
    ]])
    await controller.send('q')
    const reply = controller.getState().messages[1]
    expect(reply?.content).toBe('See these.')
    expect(reply?.metadata?.sources).toEqual([{ url: 'https://example.com/a', title: 'A' }, { url: 'https://example.com/b' }])
    expect(sourcesOf(reply ?? {})).toEqual([{ url: 'https://example.com/a', title: 'A' }, { url: 'https://example.com/b' }])
  })

  it('ignores malformed sources (untrusted chunks) and keeps at most MAX_SOURCES', async () => {
    const bad: StreamChunk[] = [
      { type: 'text', content: '', metadata: { source: { url: 42 } } },
      { type: 'text', content: '', metadata: { source: { url: '' } } },
      { type: 'text', content: '', metadata: { source: { url: 'https://x.test', title: 7 } } },
      { type: 'text', content: '', metadata: { source: 'https://x.test' } },
    ]
    const many = Array.from({ length: MAX_SOURCES + 5 }, (_, index) => sourceChunk({ url: `https://example.com/${index}` }))
    const { controller } = setup([[...bad, ...many, { type: 'text', content: 'ok' }, { type: 'done' }]])
    await controller.send('q')
    const reply = controller.getState().messages[1]
    expect(reply?.content).toBe('ok')
    const sources = reply?.metadata?.sources as unknown[]
    expect(sources).toHaveLength(MAX_SOURCES)
    expect(sources[0]).toEqual({ url: 'https://example.com/0' })
  })

  it('a text chunk that carries a source and text too keeps both', async () => {
    const { controller } = setup([[{ type: 'text', content: 'Per the policy.', metadata: { source: { url: 'https://example.com/p' } } }, { type: 'done' }]])
    await controller.send('q')
    const reply = controller.getState().messages[1]
    expect(reply?.content).toBe('Per the policy.')
    expect(reply?.metadata?.sources).toEqual([{ url: 'https://example.com/p' }])
  })

  it('a reply without sources has no metadata.sources', async () => {
    const { controller } = setup([[{ type: 'text', content: 'plain' }, { type: 'done' }]])
    await controller.send('q')
    expect(controller.getState().messages[1]?.metadata?.sources).toBeUndefined()
  })

  it('sourcesOf reads only well-formed entries from stored history, first of each url', () => {
    fc.assert(fc.property(fc.array(fc.oneof(
      fc.record({ url: fc.webUrl(), title: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) }, { requiredKeys: ['url'] }),
      fc.anything(),
    ), { maxLength: 20 }), (listed) => {
      const sources = sourcesOf({ metadata: { sources: listed } })
      const urls = sources.map((source) => source.url)
      expect(new Set(urls).size).toBe(urls.length)
      for (const source of sources) {
        expect(typeof source.url).toBe('string')
        expect(source.url.length).toBeGreaterThan(0)
        expect(source.title === undefined || typeof source.title === 'string').toBe(true)
        expect(Object.keys(source).every((key) => key === 'url' || key === 'title')).toBe(true)
      }
    }))
    expect(sourcesOf({ metadata: { sources: 'nope' } })).toEqual([])
    expect(sourcesOf({})).toEqual([])
  })
})
