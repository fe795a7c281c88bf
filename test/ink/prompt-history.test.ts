import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  atDraft, emptyHistory, historyNewer, historyOlder, recordPrompt, refineSearch, searchOlder, searchResult, startSearch,
} from '../../renderers/ink/prompt-history.js'
import type { HistoryBrowse, PromptHistory } from '../../renderers/ink/prompt-history.js'

const withPrompts = (...prompts: string[]): PromptHistory => prompts.reduce(recordPrompt, emptyHistory())

describe('prompt history', () => {
  it('keeps sent prompts oldest first, bounded, skipping blanks and an immediate repeat', () => {
    expect(withPrompts('a', 'b', 'b', '  ', 'a').entries).toEqual(['a', 'b', 'a'])
    const bounded = Array.from({ length: 150 }, (_, i) => `p${i}`).reduce(recordPrompt, emptyHistory())
    expect(bounded.entries).toHaveLength(100)
    expect(bounded.entries[0]).toBe('p50')
    expect(bounded.entries.at(-1)).toBe('p149')
  })

  it('walks back with ↑, keeping the draft, and gives the draft back at the bottom', () => {
    const history = withPrompts('first', 'second')
    const up1 = historyOlder(history, atDraft, 'my draft')
    expect(up1?.text).toBe('second')
    const up2 = historyOlder(history, up1?.browse ?? atDraft, 'second')
    expect(up2?.text).toBe('first')
    expect(historyOlder(history, up2?.browse ?? atDraft, 'first')).toBeUndefined()
    const down1 = historyNewer(history, up2?.browse ?? atDraft)
    expect(down1?.text).toBe('second')
    const down2 = historyNewer(history, down1?.browse ?? atDraft)
    expect(down2).toEqual({ browse: atDraft, text: 'my draft' })
    expect(historyNewer(history, atDraft)).toBeUndefined()
    expect(historyOlder(emptyHistory(), atDraft, 'x')).toBeUndefined()
  })

  it('any walk up and then as far down ends at the draft it started from', () => {
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 10 }), fc.string(), fc.nat(15), (prompts, draft, ups) => {
      const history = withPrompts(...prompts)
      let browse: HistoryBrowse = atDraft
      let text = draft
      for (let i = 0; i < ups; i += 1) {
        const step = historyOlder(history, browse, text)
        if (step === undefined) break
        ;({ browse, text } = step)
        expect(history.entries).toContain(text)
      }
      for (;;) {
        const step = historyNewer(history, browse)
        if (step === undefined) break
        ;({ browse, text } = step)
      }
      expect(text).toBe(draft)
    }))
  })

  it('searches back (Ctrl+R): typing refines from the current match, Ctrl+R goes older, none left says failed', () => {
    const history = withPrompts('order 1234', 'where is my parcel?', 'order 5678', 'thanks')
    let search = refineSearch(history, startSearch('draft'), 'or')
    expect(searchResult(history, search)).toBe('order 5678')
    search = refineSearch(history, search, 'ord')
    expect(searchResult(history, search)).toBe('order 5678')
    search = searchOlder(history, search)
    expect(searchResult(history, search)).toBe('order 1234')
    search = searchOlder(history, search)
    expect(search.failed).toBe(true)
    expect(searchResult(history, search)).toBe('order 1234')
    // refining keeps the match if it still holds the query, else looks further back
    search = refineSearch(history, startSearch(''), 'PARCEL')
    expect(searchResult(history, search)).toBe('where is my parcel?')
    expect(refineSearch(history, search, 'PARCELx').failed).toBe(true)
    // nothing matched: the draft
    expect(searchResult(history, refineSearch(history, startSearch('draft'), 'zzz'))).toBe('draft')
  })
})
