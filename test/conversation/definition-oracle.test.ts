import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateDefinition } from '../../src/conversation/definition-schema.js'
import { commandRoute, textRoute } from '../../src/conversation/routes.js'
import { validateWithZod } from './zod-definition-oracle.js'

/**
 * Issue 32 replaced the zod schema of definition validation by a hand-written shape check
 * (src/conversation/shape-check.ts) that must say exactly what zod said: same issues, same order,
 * same paths, same words. Held here against the zod schema itself (./zod-definition-oracle.ts, the
 * validation as it was) on random edits of valid definitions: a value replaced by an odd one, a key
 * deleted, an unknown key added, anywhere in the definition.
 */

const fnValue = (): boolean => true
const withSymbolKey = { [Symbol('s')]: 'x', ok: 'y' }
const odd: unknown[] = [
  undefined, null, '', ' ', 'x', 'idle', 'done', 'go', 'command', 'text', 'pattern', 'custom', 'event', 'deterministic', 'a b',
  0, 1, 1.5, -1, 7, 2 ** 60, -(2 ** 60), Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY, 10n,
  true, false, [], [''], ['a'], [1], [undefined], ['idle', 'nowhere'], {}, { text: 1 }, { text: 'a', extra: 1 }, { type: 'text' }, { chunks: [{ type: 1 }] },
  /re/, fnValue, new Date(0), new Map(), Object.create(null) as object, Object.create({ inherited: 1 }) as object, { length: 0 }, { length: 'x' },
  { safeParse: fnValue }, { target: 'done' }, { target: 'nowhere', extra: true }, { prompt: 'p' }, withSymbolKey, Symbol('v'),
]
const extraKeys = ['extra', 'respnse', 'conversaton', 'intial', 'kind', 'constructor', 'toString', 'id', '0']

/** A definition using every part of the schema, routes as plain objects so none takes the quick path. */
function base(): Record<string, unknown> {
  return {
    id: 'def',
    revision: 2,
    chat: { adapter: { createSource: fnValue }, extra: 1 },
    conversation: {
      initial: 'idle',
      context: { n: 1, list: [1, 'a'] },
      on: { reset: 'idle', help: { target: 'done', guard: fnValue, description: 'd' } },
      states: {
        idle: { on: { go: 'asking', end: { target: 'done' } }, actions: ['a'], description: 'start', ignoreGlobal: ['help'] },
        asking: {
          on: { filled: 'done', giveUp: 'done' },
          ignoreGlobal: true,
          form: {
            slots: { name: { prompt: 'Name?', validate: fnValue, reprompt: fnValue, maxAttempts: 2 }, age: { prompt: fnValue, validate: { safeParse: fnValue } } },
            done: 'filled',
            response: 'Thanks',
            exhausted: 'giveUp',
            exhaustedResponse: fnValue,
          },
        },
        done: { final: true },
      },
      routes: [
        { kind: 'command', id: 'c', command: '/c', caseSensitive: true, trim: true, event: 'go', response: 'ok', states: ['idle'], routeTimeoutMs: 5, traceKind: 'repaired' },
        { kind: 'text', id: 't', texts: ['hi'], event: 'go', response: { text: 'hi', chunks: [{ type: 'text', content: 'x' }], assign: { a: 1 } }, refuse: fnValue },
        { kind: 'pattern', id: 'p', pattern: /x/, assign: true, restart: true, response: fnValue, guard: fnValue, description: 'd' },
        { kind: 'custom', id: 'u', match: fnValue, response: 'u', refuse: 'no' },
        { kind: 'event', id: 'e', uiEvent: 'click', event: 'go', response: 'e' },
      ],
      fallback: { response: { text: 'sorry' } },
      agentTransitions: false,
      onTrace: fnValue,
      routeTimeoutMs: 100,
      unavailable: 'later',
      eventLabels: { click: 'Click here', go: 'Go on' },
    },
  }
}

/** Copies plain objects and arrays (other values by reference), so an edit never touches `base()`'s functions. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy)
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]))
  }
  return value
}

type Container = Record<string, unknown> | unknown[]
/** Every place in `value` that holds a key: [container, key] (frozen ones, the constructors' routes, left alone). */
function places(value: unknown, out: [Container, string | number][] = []): [Container, string | number][] {
  if (Object.isFrozen(value)) return out
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([value, i])
      places(item, out)
    })
  } else if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      out.push([value as Record<string, unknown>, key])
      places(item, out)
    }
  }
  return out
}

const edit = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fc.nat({ max: odd.length - 1 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: fc.constantFrom(...extraKeys), value: fc.nat({ max: odd.length - 1 }) }),
)

function edited(edits: readonly { op: 'set' | 'delete' | 'add'; at: number; value?: number; key?: string }[], root: unknown = copy(base())): unknown {
  for (const change of edits) {
    const all = places(root)
    if (all.length === 0) break
    const [container, key] = all[change.at % all.length] as [Container, string | number]
    const value = copy(odd[change.value ?? 0])
    if (change.op === 'set') (container as Record<string | number, unknown>)[key] = value
    else if (change.op === 'delete') {
      if (Array.isArray(container)) container.splice(key as number, 1)
      else delete container[key as string]
    } else {
      const target = (container as Record<string | number, unknown>)[key]
      if (typeof target === 'object' && target !== null && !Array.isArray(target) && !Object.isFrozen(target)) (target as Record<string, unknown>)[change.key as string] = value
      else (container as Record<string | number, unknown>)[key] = { [change.key as string]: value }
    }
  }
  return root
}

const outcome = (validate: (input: unknown) => unknown, input: unknown): unknown => {
  try {
    return { issues: validate(input) }
  } catch (error) {
    return { threw: String(error) }
  }
}

describe('the zod-free definition check says what the zod schema said', () => {
  it('on the valid base, and on the whole definition replaced by odd values', () => {
    expect(validateDefinition(base())).toEqual([])
    expect(validateWithZod(base())).toEqual([])
    for (const value of odd) expect(outcome(validateDefinition, value)).toEqual(outcome(validateWithZod, value))
  })

  it('on random edits anywhere in a definition (issues, order, paths, messages, hints)', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const input = edited(edits)
        expect(outcome(validateDefinition, input)).toEqual(outcome(validateWithZod, input))
      }),
      { numRuns: 4000 },
    )
  })

  it('with constructor-made routes next to edited ones (the quick route check in front of both)', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 0, maxLength: 3 }), fc.boolean(), (edits, quick) => {
        const root = copy(base()) as { conversation: { routes: unknown[] } }
        if (quick) root.conversation.routes = [commandRoute({ id: 'q1', command: '/q', event: 'go', response: 'q' }), textRoute({ id: 'q2', text: 'q', response: 'q' })]
        const input = edited(edits, root)
        expect(outcome(validateDefinition, input)).toEqual(outcome(validateWithZod, input))
      }),
      { numRuns: 1500 },
    )
  })
})
