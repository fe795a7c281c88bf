import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hintItems } from '../../renderers/ink/composer.js'
import { fitHint } from '../../renderers/ink/fit-hint.js'

const idle = hintItems({ streaming: false, editing: false, dialogClosed: false, escArmed: false, searching: false })

describe('fitHint', () => {
  it('fits the idle hint to 40, 80 and 120 columns, dropping the least important keys first', () => {
    const at40 = fitHint(idle, 40)
    const at80 = fitHint(idle, 80)
    const at120 = fitHint(idle, 120)
    expect(at40).toBe('Enter send · ↑ history · Ctrl+C quit')
    expect(at80).toBe('Enter send · ↑ history · Esc Esc edit last · Ctrl+J newline · Ctrl+C quit')
    expect(at120).toBe('Enter send · ↑ history · Ctrl+R search · Esc Esc edit last · Ctrl+T retry · Ctrl+J newline · Ctrl+C quit')
    for (const [line, width] of [[at40, 40], [at80, 80], [at120, 120]] as const) expect([...line].length).toBeLessThanOrEqual(width)
  })

  it('offers Ctrl+←→ versions once a message has versions (issue #31 item 9): at 80 columns in place of Esc Esc', () => {
    const withVersions = hintItems({ streaming: false, editing: false, dialogClosed: false, escArmed: false, searching: false, versions: true })
    expect(fitHint(withVersions, 80)).toBe('Enter send · ↑ history · Ctrl+←→ versions · Ctrl+J newline · Ctrl+C quit')
    expect(fitHint(idle, 80)).not.toContain('versions')
  })

  it('cuts the most important item with … when even it does not fit', () => {
    expect(fitHint([{ text: 'Enter send', rank: 0 }, { text: 'Ctrl+C quit', rank: 1 }], 6)).toBe('Enter…')
    expect(fitHint([{ text: 'Enter send', rank: 0 }], 0)).toBe('')
  })

  it('never exceeds the width and keeps the order of the items it keeps', () => {
    const item = fc.record({ text: fc.string({ minLength: 1, maxLength: 20 }), rank: fc.nat(9) })
    fc.assert(fc.property(fc.array(item, { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 150 }), (items, width) => {
      const line = fitHint(items, width)
      expect([...line].length).toBeLessThanOrEqual(width)
      if (line.endsWith('…')) return
      const kept = line.split(' · ')
      const texts = items.map((i) => i.text)
      let from = 0
      // an item text may itself contain the separator; only check when none does
      if (texts.some((t) => t.includes(' · ') || t.includes('·'))) return
      for (const part of kept) {
        const index = texts.indexOf(part, from)
        expect(index).toBeGreaterThanOrEqual(from)
        from = index + 1
      }
    }))
  })
})
