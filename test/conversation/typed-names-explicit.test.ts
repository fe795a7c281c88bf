import { describe, expect, it } from 'vitest'
import { commandRoute, defineChat, isChatrailConfigError, type ChatDefinition } from '../../src/index.js'
import { lintDefinition } from '../../src/conversation/lint.js'

/**
 * `defineChat<Ctx>({ … })` (an explicit context type, no `()`) cannot check names at compile time:
 * TypeScript infers no type argument once one is given (typed-names-explicit.test-d.ts shows the
 * six probes compiling there and failing in `defineChat<Ctx>()({ … })`). What catches them then is
 * the run time: `defineChat`'s validation throws, or `lintDefinition` (which `createChatSession`
 * prints in development) warns, each naming the place and the likely name.
 */

type Ctx = { orderNumber?: string }
const fallback = { response: 'Sorry.' }

type Probe = () => ChatDefinition<Ctx>
const probes: [string, Probe, RegExp][] = [
  ['a transition target', () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { start: 'askng' } }, asking: {} }, routes: [], fallback } }), /"askng".*Did you mean "asking"/s],
  ['a guarded target', () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { start: { target: 'askng', guard: () => true } } }, asking: {} }, routes: [], fallback } }), /"askng".*Did you mean "asking"/s],
  ['initial', () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idel', states: { idle: {} }, routes: [], fallback } }), /"idel".*Did you mean "idle"/s],
  ['a conversation-level target', () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idle', on: { cancel: 'idel' }, states: { idle: {}, asking: {} }, routes: [], fallback } }), /"idel".*Did you mean "idle"/s],
  [
    'a route event',
    () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { start: 'asking' } }, asking: { on: { back: 'idle' } } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'strat', response: 'Hi.' })], fallback } }),
    /"strat".*Did you mean "start"/s,
  ],
  [
    'an event name in `on`',
    () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { strat: 'asking' } }, asking: { on: { back: 'idle' } } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Hi.' })], fallback } }),
    /"start"/,
  ],
  [
    'a route state',
    () => defineChat<Ctx>({ id: 'p', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { start: 'asking' } }, asking: { on: { back: 'idle' } } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', states: ['idel'], response: 'Hi.' })], fallback } }),
    /"idel".*Did you mean "idle"/s,
  ],
]

/** What defineChat throws, or what lintDefinition warns, for the probe: one text. */
function caught(probe: Probe): string {
  let definition: ChatDefinition<Ctx>
  try {
    definition = probe()
  } catch (error) {
    if (!isChatrailConfigError(error)) throw error
    return error.issues.map((issue) => `${issue.message} ${issue.hint ?? ''}`).join('\n')
  }
  return lintDefinition(definition).map((warning) => `${warning.message} ${warning.hint ?? ''}`).join('\n')
}

describe('typos in defineChat<Ctx>({ … }), which the compiler cannot check', () => {
  for (const [name, probe, expected] of probes) {
    it(`are caught when the definition is defined or linted: ${name}`, () => {
      expect(caught(probe)).toMatch(expected)
    })
  }
})
