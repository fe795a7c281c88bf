import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { RuleType as htmlRule, parser as htmlParser } from 'markdown-to-jsx/html'
import { RuleType as reactRule, parser as reactParser } from 'markdown-to-jsx/react'
import { RuleType as vueRule, parser as vueParser } from 'markdown-to-jsx/vue'
import { headingLevels, headingLevelsOf, headingMap } from '../../src/view/heading-levels.js'

// The one heading rule of the three web bindings: React parses with markdown-to-jsx/react, Vue with
// /vue and Svelte with /html; the same source gets the same levels whichever parser read it.
const parsers = [['react', reactParser, reactRule.heading], ['vue', vueParser, vueRule.heading], ['svelte (html)', htmlParser, htmlRule.heading]] as const

describe('heading levels', () => {
  it.each(parsers)('%s: the biggest heading used becomes the base level, the next ones follow without gaps', (_name, parse, heading) => {
    expect(headingLevels(parse('# A\n\n### B\n\n###### C'), heading, 3)).toEqual(new Map([[1, 3], [3, 4], [6, 5]]))
    // headings inside quotes and lists count too
    expect(headingLevels(parse('## Only\n\n> #### quoted\n\n- ##### listed'), heading, 4)).toEqual(new Map([[2, 4], [4, 5], [5, 6]]))
    expect(headingLevelsOf(parse('no headings, just *text*'), heading)).toEqual(new Set())
  })

  it('never past h6 and never above h1', () => {
    expect(headingMap(new Set([1, 2, 3, 4, 5]), 3).get(5)).toBe(6)
    expect(headingMap(new Set([2]), 0).get(2)).toBe(1)
  })

  it('property: levels keep their order, start at the base, have no gaps below h6', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }), fc.integer({ min: 1, max: 6 }), (used, base) => {
      const map = headingMap(new Set(used), base)
      const sorted = [...used].sort((a, b) => a - b)
      const rendered = sorted.map((level) => map.get(level) ?? 0)
      expect(map.size).toBe(used.length)
      if (sorted.length > 0) expect(rendered[0]).toBe(base)
      rendered.forEach((level, i) => {
        expect(level).toBeLessThanOrEqual(6)
        if (i > 0) expect(level - (rendered[i - 1] ?? 0)).toBe((rendered[i - 1] ?? 0) < 6 ? 1 : 0)
      })
    }))
  })
})
