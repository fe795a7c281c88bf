import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  defineComponents,
  fallbackProblem,
  formatSemanticFallback,
  parseSemanticFallback,
  selectChoice,
  standardCatalog,
  type ComponentPart,
} from '../../src/components/index.js'
import { refusal, STANDARD_FIXTURES } from './fixtures.js'

const registry = defineComponents(standardCatalog)
const choices = registry.render('choice-list', STANDARD_FIXTURES['choice-list'], { instanceId: 'lost-card' })

describe('selectChoice', () => {
  it('is the registry\'s select interaction of an offered choice, frozen', () => {
    const selected = selectChoice(choices, 'refund')
    expect(selected).toEqual({ componentKey: 'choice-list', instanceId: 'lost-card', event: 'select', value: 'refund' })
    expect(registry.interactUnknown(choices, 'select', 'refund')).toEqual({ ok: true, value: selected })
    expect(Object.isFrozen(selected)).toBe(true)
  })

  it('refuses a choice the part does not offer, a part of another key and a tampered part', () => {
    expect(refusal(() => selectChoice(choices, 'missing')).code).toBe('COMPONENT_INVALID_EVENT')
    const button = registry.render('button-group', STANDARD_FIXTURES['button-group'])
    expect(refusal(() => selectChoice(button, 'ship')).code).toBe('COMPONENT_UNKNOWN')
    const tampered = { ...choices, props: { choices: [] } } as ComponentPart
    expect(refusal(() => selectChoice(tampered, 'refund')).code).toBe('COMPONENT_INVALID_PROPS')
    expect(refusal(() => selectChoice({ ...choices, componentKey: 'constructor' }, 'refund')).code).toBe('COMPONENT_UNKNOWN')
  })
})

describe('semantic fallback', () => {
  it('parses a fallback to exactly { kind, summary } and formats it as one line', () => {
    const fallback = parseSemanticFallback({ kind: 'chart', summary: 'Revenue rose 12%.', extra: 'dropped' })
    expect(fallback).toEqual({ kind: 'chart', summary: 'Revenue rose 12%.' })
    expect(Object.isFrozen(fallback)).toBe(true)
    expect(formatSemanticFallback(fallback)).toBe('[unsupported visual: chart] Revenue rose 12%.')
    expect(formatSemanticFallback(fallback, { label: 'visuel non pris en charge' })).toBe('[visuel non pris en charge: chart] Revenue rose 12%.')
  })

  it('refuses empty, oversized and non-object fallbacks with COMPONENT_INVALID_PART at path fallback', () => {
    for (const bad of [{ kind: '', summary: 'Missing kind.' }, { kind: 'chart', summary: '' }, { kind: 'x'.repeat(65), summary: 's' }, { kind: 'chart', summary: 's'.repeat(4097) }, null, 'chart', ['chart', 's']]) {
      const error = refusal(() => parseSemanticFallback(bad))
      expect(error.code).toBe('COMPONENT_INVALID_PART')
      expect(error.diagnostic.path).toEqual(['fallback'])
    }
  })

  it('accepts exactly the fallbacks the registry accepts on a part (property)', () => {
    const text = (max: number) => fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: max - 1, maxLength: max + 1 }))
    fc.assert(
      fc.property(fc.record({ kind: text(64), summary: text(4096) }), (fallback) => {
        const part = { ...choices, fallback }
        expect(fallbackProblem(fallback) === undefined).toBe(registry.resolve(part).ok)
      }),
      { numRuns: 200 },
    )
  })
})
