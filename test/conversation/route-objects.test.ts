import v8 from 'node:v8'
import { describe, expect, it } from 'vitest'
import { commandRoute, eventRoute, patternRoute, route, textRoute } from '../../src/conversation/routes.js'

/**
 * The objects the route constructors build (routes.ts `freezeRoute`): what a spread of the options
 * gave before, key for key, and one hidden class for every route built from the same option keys,
 * which is what keeps validating and indexing 10,000 routes fast (issue 20).
 */

// `%HaveSameMap` is V8's own answer to "do these objects share a hidden class"; the flag only
// affects functions compiled after it is set.
v8.setFlagsFromString('--allow-natives-syntax')
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean

describe('route objects', () => {
  it('hold the options\' keys in their order, then the constructor\'s own, frozen', () => {
    const command = commandRoute({ id: 'c', command: ' /go ', event: 'go', response: 'ok' })
    expect(Object.keys(command)).toEqual(['id', 'command', 'event', 'response', 'kind', 'caseSensitive', 'trim'])
    expect(command).toEqual({ id: 'c', command: '/go', event: 'go', response: 'ok', kind: 'command', caseSensitive: true, trim: true })
    expect(Object.isFrozen(command)).toBe(true)
    expect(Object.getPrototypeOf(command)).toBe(Object.prototype)
    const text = textRoute({ id: 't', text: 'hi', response: 'ok' })
    expect(Object.keys(text)).toEqual(['id', 'response', 'kind', 'texts'])
    expect(text.texts).toEqual(['hi'])
  })

  it('share one hidden class per kind and option keys, whatever the values', () => {
    const commands = Array.from({ length: 50 }, (_, i) => commandRoute({ id: `r${i}`, command: `/c${i}`, event: 'go', response: `resp${i}` }))
    expect(commands.every((item) => haveSameMap(item, commands[0] as object))).toBe(true)
    const builders = [
      (i: number) => textRoute({ id: `t${i}`, texts: [`t${i}`], response: 'ok' }),
      (i: number) => patternRoute({ id: `p${i}`, pattern: /x/, response: 'ok' }),
      (i: number) => route({ id: `u${i}`, match: () => true, response: 'ok' }),
      (i: number) => eventRoute({ id: `e${i}`, uiEvent: 'click', response: 'ok' }),
    ]
    for (const build of builders) {
      const routes = Array.from({ length: 20 }, (_, i) => build(i))
      expect(routes.every((item) => haveSameMap(item, routes[0] as object))).toBe(true)
    }
  })

  it('keep a `__proto__` key of parsed options as a key, never as the route\'s prototype', () => {
    const options = JSON.parse('{"id":"r","command":"/x","response":"ok","__proto__":{"polluted":true}}') as { id: string; command: string; response: string }
    const built = commandRoute(options)
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype)
    expect(Object.hasOwn(built, '__proto__')).toBe(true)
    expect((built as unknown as { polluted?: unknown }).polluted).toBeUndefined()
    const text = textRoute(JSON.parse('{"id":"t","text":"hi","response":"ok","__proto__":{"polluted":true}}') as { id: string; text: string; response: string })
    expect(Object.getPrototypeOf(text)).toBe(Object.prototype)
    expect(Object.hasOwn(text, '__proto__')).toBe(true)
  })
})
