import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  ComponentError,
  STANDARD_COMPONENT_KEYS,
  defineComponent,
  defineComponents,
  isSafeUrl,
  standardCatalog,
  type ComponentPart,
} from '../../src/components/index.js'
import { ChatrailConfigError } from '../../src/index.js'
import { refusal, STANDARD_FIXTURES } from './fixtures.js'

const orderCard = defineComponent({
  key: 'order-card',
  props: z.object({ order: z.string(), total: z.number().nonnegative() }),
  events: { open: 'none', pick: 'id' },
  accessibility: { role: 'article' },
  fallback: (props) => `Order ${props.order}: ${props.total} EUR`,
  checkEvent: (_props, event, value) => (event === 'pick' && value !== 'ship' ? 'only "ship" can be picked' : undefined),
})
const registry = defineComponents([...standardCatalog, orderCard])

describe('defineComponents: a closed registry', () => {
  it('render: a frozen part with the key as kind, the definition\'s fallback, a stable instance id and provenance route', () => {
    const part = registry.render('order-card', { order: '12345', total: 40 })
    expect(part).toEqual({ type: 'component', componentKey: 'order-card', instanceId: expect.stringMatching(/^order-card-[0-9a-z]+$/), props: { order: '12345', total: 40 }, fallback: { kind: 'order-card', summary: 'Order 12345: 40 EUR' }, provenance: 'route' })
    expect(Object.isFrozen(part) && Object.isFrozen(part.props) && Object.isFrozen(part.fallback)).toBe(true)
    expect(registry.render('order-card', { order: '12345', total: 40 }).instanceId).toBe(part.instanceId)
    expect(registry.render('order-card', { order: '12346', total: 40 }).instanceId).not.toBe(part.instanceId)
    expect(registry.render('order-card', { order: '1', total: 1 }, { instanceId: 'card-a', provenance: 'host' })).toMatchObject({ instanceId: 'card-a', provenance: 'host' })
  })

  it('props are copied: changing the object after render changes nothing', () => {
    const props = { order: '12345', total: 40 }
    const part = registry.render('order-card', props)
    props.order = 'changed'
    expect((part.props as { order: string }).order).toBe('12345')
  })

  it('unknown keys, constructor and __proto__ are COMPONENT_UNKNOWN; invalid props COMPONENT_INVALID_PROPS with the path', () => {
    for (const key of ['nope', 'constructor', '__proto__', 'toString']) {
      expect(refusal(() => registry.render(key as 'order-card', { order: '1', total: 1 })).code).toBe('COMPONENT_UNKNOWN')
      expect(registry.get(key)).toBeUndefined()
    }
    const invalid = refusal(() => registry.render('order-card', { order: '1', total: -5 }))
    expect(invalid.diagnostic).toMatchObject({ code: 'COMPONENT_INVALID_PROPS', path: ['total'] })
    expect(invalid.message).toContain('order-card')
  })

  it('props beyond the bounds are COMPONENT_PROPS_LIMIT before the schema runs', () => {
    const loose = defineComponents([defineComponent({ key: 'loose', props: z.unknown(), accessibility: { role: 'note' }, fallback: () => 'x' })])
    let deep: unknown = 'leaf'
    for (let i = 0; i < 25; i++) deep = { deep }
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const withGetter = Object.defineProperty({}, 'x', { enumerable: true, get: () => 1 })
    const cases: [string, unknown][] = [
      ['nodes', Array.from({ length: 1001 }, (_, i) => i)],
      ['levels', deep],
      ['characters', 'x'.repeat(16_385)],
      ['not plain', new Date(0)],
      ['cycle', cyclic],
      ['accessor', withGetter],
      ['not finite', Number.NaN],
      ['function', { f: () => 1 }],
    ]
    for (const [what, props] of cases) {
      const error = refusal(() => loose.render('loose', props))
      expect(error.code, what).toBe('COMPONENT_PROPS_LIMIT')
      expect(error.message, what).toMatch(new RegExp(what === 'function' ? 'function' : what))
    }
    expect(loose.render('loose', Array.from({ length: 999 }, (_, i) => i)).props).toHaveLength(999)
  })

  it('a bad registry is a ChatrailConfigError naming the path and the fix', () => {
    const duplicate = (() => { try { defineComponents([orderCard, orderCard]) } catch (error) { return error } })()
    expect(duplicate).toBeInstanceOf(ChatrailConfigError)
    expect((duplicate as ChatrailConfigError).path).toEqual(['components', 1, 'key'])
    const badKey = (() => { try { defineComponents([{ ...orderCard, key: 'Order Card' }]) } catch (error) { return error } })() as ChatrailConfigError
    expect(badKey.path).toEqual(['components', 0, 'key'])
    expect(badKey.hint).toContain('lowercase')
    const reused = (() => { try { defineComponents([...standardCatalog, { ...orderCard, key: 'table' }]) } catch (error) { return error } })() as ChatrailConfigError
    expect(reused.message).toContain('"table"')
  })

  it('resolve checks a part from outside again: its shape, its key, its props', () => {
    const part = registry.render('order-card', { order: '1', total: 1 })
    expect(registry.resolve(part)).toMatchObject({ ok: true, value: { props: { order: '1', total: 1 } } })
    expect(registry.resolve({ ...part, props: { order: 1 } })).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_PROPS' } })
    expect(registry.resolve({ ...part, componentKey: 'constructor' })).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_UNKNOWN' } })
    expect(registry.resolve({ ...part, instanceId: '../x' })).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_PART' } })
    expect(registry.resolve({ ...part, provenance: 'model' })).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_PART' } })
    expect(registry.resolve('{"type":"component"}')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_PART' } })
  })
})

describe('interactions: only declared events with well-shaped values the props offer', () => {
  const card = registry.render('order-card', { order: '1', total: 1 })
  const choices = registry.render('choice-list', STANDARD_FIXTURES['choice-list'])

  it('a declared event becomes a frozen interaction', () => {
    expect(registry.interact(card as ComponentPart & { componentKey: 'order-card' }, 'open')).toEqual({ ok: true, value: { componentKey: 'order-card', instanceId: card.instanceId, event: 'open' } })
    expect(registry.interact(choices as ComponentPart & { componentKey: 'choice-list' }, 'select', 'refund')).toMatchObject({ ok: true, value: { event: 'select', value: 'refund' } })
  })

  it('undeclared events, wrong value shapes and values the props do not offer are refused with their codes', () => {
    expect(registry.interactUnknown(card, 'delete')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_UNDECLARED_EVENT' } })
    expect(registry.interactUnknown(card, 'constructor')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_UNDECLARED_EVENT' } })
    expect(registry.interactUnknown(card, 'open', 'x')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_EVENT' } })
    expect(registry.interactUnknown(card, 'pick', 'hold')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_EVENT', message: expect.stringContaining('only "ship"') } })
    expect(registry.interactUnknown(choices, 'select', 'burn')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_EVENT' } })
    expect(registry.interactUnknown(choices, 'select', 42)).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_EVENT' } })
  })

  it('standard checks: enabled buttons only, declared and typed form fields, the card\'s own link', () => {
    const buttons = registry.render('button-group', STANDARD_FIXTURES['button-group'])
    expect(registry.interactUnknown(buttons, 'press', 'ship').ok).toBe(true)
    expect(registry.interactUnknown(buttons, 'press', 'hold').ok).toBe(false)
    const form = registry.render('form', STANDARD_FIXTURES.form)
    expect(registry.interactUnknown(form, 'submit', { street: 'Main 1', zip: 12345, express: true, carrier: 'dhl' }).ok).toBe(true)
    expect(registry.interactUnknown(form, 'submit', { zip: 12345 })).toMatchObject({ ok: false, diagnostic: { message: expect.stringContaining('"street" is required') } })
    expect(registry.interactUnknown(form, 'submit', { street: 'x', zip: '12345' })).toMatchObject({ ok: false, diagnostic: { message: expect.stringContaining('number') } })
    expect(registry.interactUnknown(form, 'submit', { street: 'x', admin: true })).toMatchObject({ ok: false, diagnostic: { message: expect.stringContaining('no field "admin"') } })
    expect(registry.interactUnknown(form, 'submit', { street: 'x', carrier: 'ups' }).ok).toBe(false)
    const link = registry.render('link-card', STANDARD_FIXTURES['link-card'])
    expect(registry.interactUnknown(link, 'open', 'https://track.example.com/12345').ok).toBe(true)
    expect(registry.interactUnknown(link, 'open', 'https://evil.example.com/').ok).toBe(false)
    const notice = registry.render('error-notice', { title: 'x', message: 'y' })
    expect(registry.interactUnknown(notice, 'retry').ok).toBe(false)
  })
})

describe('the standard catalog', () => {
  it('has the twelve keys, each resolving its fixture with a role, display and a fallback that reads as text', () => {
    expect(STANDARD_COMPONENT_KEYS).toEqual(['button-group', 'choice-list', 'form', 'confirmation', 'progress', 'source-list', 'link-card', 'error-notice', 'tool-call', 'approval-request', 'table', 'file-attachment'])
    for (const key of STANDARD_COMPONENT_KEYS) {
      const part = registry.render(key, STANDARD_FIXTURES[key] as never)
      const definition = registry.get(key)
      expect(definition?.accessibility.role, key).toMatch(/^[a-z]+$/)
      expect(definition?.capabilities, key).toContain('display')
      expect(part.fallback.summary.length, key).toBeGreaterThan(3)
      expect(part.fallback.summary, key).not.toMatch(/\[object Object\]|undefined/)
      expect(registry.resolve(JSON.parse(JSON.stringify(part))).ok, key).toBe(true)
    }
    expect(registry.render('choice-list', STANDARD_FIXTURES['choice-list']).fallback.summary).toBe('What should happen to the lost card?: Reship (free, 3 days); Refund')
  })

  it('URLs: relative or credential-free http(s) only', () => {
    for (const ok of ['/help', './a', 'a/b', '#top', '?q=1', 'https://example.com/x', 'http://example.com']) expect(isSafeUrl(ok), ok).toBe(true)
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', '//evil.example', '\\\\evil.example', '/\\evil.example', 'https://user:pass@example.com', ' https://example.com', 'java\tscript:alert(1)', 'ftp://example.com', '']) expect(isSafeUrl(bad), bad).toBe(false)
    expect(() => registry.render('link-card', { title: 'x', href: '//evil.example' })).toThrow(ComponentError)
    expect(() => registry.render('file-attachment', { name: 'x', url: 'javascript:alert(1)' })).toThrow(/relative or credential-free/)
  })
})
