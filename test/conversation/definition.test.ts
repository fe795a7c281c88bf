import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import {
  ChatrailConfigError,
  commandRoute,
  createChatSession,
  defineChat,
  eventRoute,
  formatConfigIssues,
  isChatrailConfigError,
  patternRoute,
  route,
  textRoute,
  type ChatDefinitionInput,
  type JsonObject,
} from '../../src/index.js'
import { lintDefinition, scriptedAdapter } from '../../src/testing/index.js'

const adapter = scriptedAdapter(['x'])
const base = (conversation: Partial<ChatDefinitionInput['conversation']> = {}, rest: Partial<ChatDefinitionInput> = {}): ChatDefinitionInput => ({
  id: 'def',
  chat: { adapter },
  conversation: { initial: 'idle', states: { idle: { on: { go: 'done' } }, done: { final: true } }, routes: [], ...conversation },
  ...rest,
})

function issuesOf(input: unknown): ChatrailConfigError {
  try {
    defineChat(input as ChatDefinitionInput)
  } catch (error) {
    if (isChatrailConfigError(error)) return error
    throw error
  }
  throw new Error('expected a ChatrailConfigError')
}

describe('defineChat validation (§7 22–23 and more)', () => {
  it('rejects an unknown initial with a did-you-mean', () => {
    const error = issuesOf(base({ initial: 'idel' }))
    expect(error.issues[0]).toMatchObject({ code: 'unknown_initial', path: ['conversation', 'initial'], hint: 'Did you mean "idle"?' })
    expect(error.path).toEqual(['conversation', 'initial'])
    expect(error.message).toBe(error.issues[0]?.message)
    expect(error.hint).toBe(error.issues[0]?.hint)
    expect(ChatrailConfigError.isInstance(error)).toBe(true)
  })

  it('rejects empty and unsafe state names, and an empty initial', () => {
    expect(issuesOf(base({ initial: '' })).issues[0]).toMatchObject({ code: 'unknown_initial', path: ['conversation', 'initial'] })
    const error = issuesOf(base({ states: { idle: { on: { go: 'my state' } }, '': {}, 'my state': {} } }))
    const codes = error.issues.map((i) => `${i.code}@${i.path.join('.')}`)
    expect(codes).toEqual(['invalid_identifier@conversation.states.', 'invalid_identifier@conversation.states.my state'])
    expect(error.issues[1]?.hint).toContain('"my-state"')
  })

  it('rejects a transition to an unknown state, naming the place and the closest state', () => {
    const error = issuesOf(base({ states: { idle: { on: { go: { target: 'dnoe' } } }, done: {} } }))
    expect(error.issues[0]).toMatchObject({ code: 'unknown_target', path: ['conversation', 'states', 'idle', 'on', 'go', 'target'], hint: 'Did you mean "done"?' })
    expect(error.message).toContain('"idle"')
  })

  it('rejects empty, unsafe and duplicate route ids, and route states naming unknown states', () => {
    const r = (id: string, states?: string[]) => commandRoute({ id, command: '/x', event: 'go', response: 'x', ...(states ? { states } : {}) })
    const error = issuesOf(base({ routes: [r(''), r('/start'), r('dup'), r('dup'), r('ok', ['idle', 'dnoe'])] }))
    const byCode = (code: string) => error.issues.filter((i) => i.code === code)
    expect(byCode('invalid_identifier').map((i) => i.path)).toEqual([
      ['conversation', 'routes', 0, 'id'],
      ['conversation', 'routes', 1, 'id'],
    ])
    expect(byCode('invalid_identifier')[1]?.hint).toContain('"start"')
    expect(byCode('duplicate_route_id')[0]).toMatchObject({ path: ['conversation', 'routes', 3, 'id'], message: expect.stringContaining('routes 2 and 3') })
    expect(byCode('unknown_route_state')[0]).toMatchObject({ path: ['conversation', 'routes', 4, 'states', 1], hint: 'Did you mean "done"?' })
  })

  it('rejects unsafe event names, a non-JSON context, a bad revision and unknown keys with did-you-mean', () => {
    expect(issuesOf(base({ states: { idle: { on: { 'go now': 'done' } }, done: {} } })).issues[0]?.code).toBe('invalid_identifier')
    expect(issuesOf(base({ context: { when: new Date() } as never })).issues[0]).toMatchObject({ code: 'context_not_json', path: ['conversation', 'context', 'when'] })
    expect(issuesOf(base({}, { revision: 0 })).issues[0]?.path).toEqual(['revision'])
    const typo = issuesOf({ ...base(), conversaton: {} })
    expect(typo.issues.find((i) => i.code === 'unknown_key')).toMatchObject({ path: ['conversaton'], hint: 'Did you mean "conversation"?' })
    const routeTypo = issuesOf(base({ routes: [{ ...commandRoute({ id: 'a', command: '/a', event: 'go', response: 'x' }), respnse: 'x' } as never] }))
    expect(routeTypo.issues[0]).toMatchObject({ code: 'unknown_key', hint: 'Did you mean "response"?' })
  })

  it('says what is wrong with a field in English, whatever zod locale the app configured globally', () => {
    const config = z.config()
    const saved = config.localeError
    z.config({ localeError: () => 'Ungültige Eingabe' })
    let error: ChatrailConfigError
    try {
      error = issuesOf(base({ initial: 5 as never, routes: [{ kind: 'text', id: 'a', event: 'go', texts: [], response: 'x' } as never] }, { revision: 1.5 }))
    } finally {
      z.config({ localeError: saved })
    }
    expect(error.issues.map((i) => i.message)).toEqual([
      'revision: Invalid input: expected int, received number',
      'conversation.initial: Invalid input: expected string, received number',
      'conversation.routes.0.texts: Too small: expected array to have >=1 items',
    ])
    expect(error.issues[1]?.hint).toBe('Fix conversation.initial (see docs/conversation.md for the field\'s type).')
  })

  it('requires an adapter or a fallback', () => {
    const error = issuesOf({ ...base(), chat: {} })
    expect(error.issues[0]).toMatchObject({ code: 'no_agentic_answer', path: ['chat', 'adapter'] })
    expect(() => defineChat({ ...base({ fallback: { response: 'Sorry.' } }), chat: {} })).not.toThrow()
  })

  it('23: route constructors reject their own bad arguments at once', () => {
    expect(() => commandRoute({ id: 'a', command: '', event: 'go', response: 'x' })).toThrow(ChatrailConfigError)
    expect(() => commandRoute({ id: 'a', command: '   ', event: 'go', response: 'x' })).toThrow(/command is empty/)
    expect(() => textRoute({ id: 'a', texts: [], event: 'go', response: 'x' })).toThrow(ChatrailConfigError)
    expect(() => patternRoute({ id: 'a', pattern: 'x' as never, event: 'go', response: 'x' })).toThrow(/RegExp/)
    expect(() => route({ id: 'a', match: 'x' as never, event: 'go', response: 'x' })).toThrow(/match must be a function/)
    expect(() => eventRoute({ id: 'a', uiEvent: 'two words', event: 'go', response: 'x' })).toThrow(/identifier-safe/)
  })

  it('returns a frozen definition whose context is a frozen copy', () => {
    const context = { count: 1 }
    const def = defineChat(base({ context }))
    expect(Object.isFrozen(def)).toBe(true)
    expect(Object.isFrozen(def.conversation.context)).toBe(true)
    context.count = 2
    expect(def.conversation.context).toEqual({ count: 1 })
    expect(defineChat(def)).toBe(def)
  })

  it('formats issues with place and fix, separately from the error', () => {
    const text = formatConfigIssues(issuesOf(base({ initial: 'idel' })).issues)
    expect(text).toBe('✖ Initial state "idel" is not declared in conversation.states.\n  → at conversation.initial\n  hint: Did you mean "idle"?')
  })

  it('createChatSession rejects an unsafe session id and an unknown start state', () => {
    const def = defineChat(base())
    expect(() => createChatSession(def, { sessionId: 'a b' })).toThrow(ChatrailConfigError)
    expect(() => createChatSession(def, { start: { state: 'dnoe' } })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', hint: 'Did you mean "done"?' }))
  })
})

describe('lintDefinition', () => {
  afterEach(() => vi.restoreAllMocks())

  // `<JsonObject>`: names unchecked, since the fixture's dead route names an event no state declares.
  const linted = defineChat<JsonObject>({
    id: 'lint',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      states: {
        idle: { on: { start: 'asking' } },
        asking: { on: { answer: 'idle' } },
        orphan: { on: { start: 'idle' } },
        stuck: {},
        closed: { final: true, on: { reopen: 'idle' } },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'a' }),
        commandRoute({ id: 'start-again', command: ' /start ', event: 'start', states: ['idle'], response: 'b' }),
        commandRoute({ id: 'dead', command: '/dead', event: 'nowhere', response: 'c' }),
        commandRoute({ id: 'misplaced', command: '/answer', event: 'answer', states: ['idle'], response: 'd' }),
        commandRoute({ id: 'guarded', command: '/g', event: 'start', guard: () => true, response: 'e' }),
        commandRoute({ id: 'after-guarded', command: '/g', event: 'start', response: 'f' }),
      ],
    },
  })

  it('reports each kind of problem with a path and a fix', () => {
    const warnings = lintDefinition(linted)
    const list = warnings.map((w) => `${w.code}@${w.path.join('.')}`)
    expect(list).toEqual([
      'unreachable_state@conversation.states.orphan',
      'unreachable_state@conversation.states.stuck',
      'dead_end_state@conversation.states.stuck',
      'unreachable_state@conversation.states.closed',
      'final_with_transitions@conversation.states.closed.on',
      'shadowed_route@conversation.routes.1',
      'dead_route@conversation.routes.2.event',
      'route_state_without_event@conversation.routes.3.states.0',
    ])
    expect(warnings.every((w) => w.hint.length > 0)).toBe(true)
    expect(warnings.find((w) => w.code === 'shadowed_route')?.message).toContain('"start"')
  })

  it('is printed once per definition in development, and can be silenced', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    createChatSession(linted)
    createChatSession(linted)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toContain('⚠ State "orphan" cannot be reached from "idle".\n  → at conversation.states.orphan')
    const quiet = defineChat({ ...linted, id: 'lint2' })
    createChatSession(quiet, { lint: false })
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('is silent in production', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    vi.stubEnv('NODE_ENV', 'production')
    try {
      createChatSession(defineChat({ ...linted, id: 'lint3' }))
    } finally {
      vi.unstubAllEnvs()
    }
    expect(warn).not.toHaveBeenCalled()
  })
})
