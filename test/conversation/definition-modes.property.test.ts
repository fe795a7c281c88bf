import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import { createChatController } from '../../src/controller/index.js'
import { commandRoute, createChatSession, defineChat, eventRoute, patternRoute, sendUiEvent, textRoute, type ChatDefinitionInput, type Route } from '../../src/index.js'

/**
 * `defineChat` runs the full definition check in development only (issue 32): with NODE_ENV
 * "production" it skips it, and with it the route-position map it handed the route index. A valid
 * definition must behave identically either way: the same `defineChat` result, and the same turns
 * (text, state, context, trace) over random valid definitions and random inputs.
 */

interface Shape {
  states: number
  transitions: [number, number, number][]
  global: [number, number][]
  routes: { kind: 'command' | 'text' | 'event' | 'pattern'; key: number; event: number | undefined; states: number[] | undefined; assign: boolean }[]
  form: number | undefined
  fallback: boolean
}

const EVENTS = ['go', 'back', 'next']
const shapeArb: fc.Arbitrary<Shape> = fc.record({
  states: fc.integer({ min: 1, max: 4 }),
  transitions: fc.array(fc.tuple(fc.nat(3), fc.nat(2), fc.nat(3)), { maxLength: 8 }),
  global: fc.array(fc.tuple(fc.nat(2), fc.nat(3)), { maxLength: 2 }),
  routes: fc.array(
    fc.record({
      kind: fc.constantFrom('command' as const, 'text' as const, 'event' as const, 'pattern' as const),
      key: fc.nat(3),
      event: fc.option(fc.nat(2), { nil: undefined }),
      states: fc.option(fc.array(fc.nat(3), { minLength: 1, maxLength: 2 }), { nil: undefined }),
      assign: fc.boolean(),
    }),
    { maxLength: 8 },
  ),
  form: fc.option(fc.nat(3), { nil: undefined }),
  fallback: fc.boolean(),
})

/** A valid definition of `shape`: names only from the declared ones (out-of-range indexes wrap). */
function definitionOf(shape: Shape, adapter: AdapterFactory): ChatDefinitionInput {
  const names = Array.from({ length: shape.states }, (_, i) => `s${i}`)
  const state = (i: number): string => names[i % names.length] as string
  const states: Record<string, { on?: Record<string, string>; form?: { slots: Record<string, { prompt: string }>; done: string } }> = {}
  for (const name of names) states[name] = {}
  for (const [from, event, to] of shape.transitions) ((states[state(from)] as { on?: Record<string, string> }).on ??= {})[EVENTS[event] as string] = state(to)
  const on: Record<string, string> = {}
  for (const [event, to] of shape.global) on[`g${EVENTS[event]}`] = state(to)
  if (shape.form !== undefined) {
    const formState = states[state(shape.form)] as { on?: Record<string, string>; form?: unknown }
    formState.on = { ...formState.on, filled: state(0) }
    formState.form = { slots: { name: { prompt: 'Your name?' }, city: { prompt: 'Your city?' } }, done: 'filled' }
  }
  const declared = new Set(Object.values(states).flatMap((s) => Object.keys(s.on ?? {})))
  const routes: Route[] = shape.routes.map((spec, index) => {
    const id = `r${index}`
    const event = spec.event !== undefined && declared.has(EVENTS[spec.event] as string) ? { event: EVENTS[spec.event] as string } : {}
    const only = spec.states ? { states: [...new Set(spec.states.map(state))] } : {}
    const response = spec.assign ? { text: `${id} answers`, assign: { last: id } } : `${id} answers`
    switch (spec.kind) {
      case 'command':
        return commandRoute({ id, command: `/c${spec.key}`, response, ...event, ...only })
      case 'text':
        return textRoute({ id, text: `hi ${spec.key}`, response, ...event, ...only })
      case 'event':
        return eventRoute({ id, uiEvent: `u${spec.key}`, response, ...event, ...only })
      case 'pattern':
        return patternRoute({ id, pattern: new RegExp(`^#${spec.key}(?<n>\\d*)`), assign: true, response, ...event, ...only })
    }
  })
  return {
    id: 'generated',
    chat: { adapter },
    conversation: { initial: state(0), states, ...(shape.global.length > 0 ? { on } : {}), context: { last: null }, routes, ...(shape.fallback ? { fallback: { response: 'fallback answers' } } : {}) },
  } as ChatDefinitionInput
}

const echo: AdapterFactory = {
  createSource: (request) => ({
    stream: async function* () {
      yield { type: 'text', content: `agent hears ${String(request.messages.at(-1)?.content)}` }
      yield { type: 'done' }
    },
    abort: () => undefined,
  }),
}

type Input = { text: string } | { uiEvent: string }
const inputArb: fc.Arbitrary<Input> = fc.oneof(
  fc.constantFrom('/c0', '/c1', '/c2', '/C3 ', 'hi 0', 'HI 1', 'hi 2', '#1', '#27', '#3x', 'Ada', 'Paris', 'nothing known').map((text) => ({ text })),
  fc.constantFrom('u0', 'u1', 'u2', 'u3').map((uiEvent) => ({ uiEvent })),
)

/** What `defineChat` and a few turns produce under NODE_ENV `env`. */
async function run(env: string, definitionInput: ChatDefinitionInput, inputs: readonly Input[]) {
  vi.stubEnv('NODE_ENV', env)
  const definition = defineChat(definitionInput)
  const session = createChatSession(definition, { sessionId: 'same', lint: false, clock: () => new Date(0) })
  let n = 0
  const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
  const turns: unknown[] = []
  for (const input of inputs) {
    if ('text' in input) await controller.send(input.text)
    else await sendUiEvent(controller, input.uiEvent, `Button ${input.uiEvent}`)
    const snapshot = session.getSnapshot()
    turns.push({ text: controller.getState().messages.at(-1)?.content, state: snapshot.state, context: snapshot.context, events: snapshot.events, restart: snapshot.restart })
  }
  vi.unstubAllEnvs()
  return { definition, turns, traces: session.traces() }
}

describe('a valid definition behaves the same whether defineChat checked it or not (issue 32)', () => {
  afterEach(() => void vi.unstubAllEnvs())

  it('the same defineChat result and the same turns under NODE_ENV production and development', async () => {
    let agentic = 0
    let deterministic = 0
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.array(inputArb, { minLength: 1, maxLength: 6 }), async (shape, inputs) => {
        const input = definitionOf(shape, echo)
        const production = await run('production', input, inputs)
        const development = await run('development', input, inputs)
        expect(production.definition).toEqual(development.definition)
        expect(Object.isFrozen(production.definition.conversation.routes)).toBe(true)
        expect(production.turns).toEqual(development.turns)
        expect(production.traces).toEqual(development.traces)
        for (const trace of development.traces) {
          if (trace.kind === 'agentic') agentic++
          else deterministic++
        }
      }),
      { numRuns: 60 },
    )
    // both kinds of turn ran, so the property does not hold vacuously
    expect(agentic).toBeGreaterThan(0)
    expect(deterministic).toBeGreaterThan(0)
  })
})
