import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { build } from 'esbuild'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isChatrailConfigError, type ChatrailConfigError } from '../../src/conversation/config-error.js'
import { assertValidDefinition } from '../../src/conversation/definition-check.js'
import { commandRoute, createChatSession, defineChat, resumeChatSession, type ChatDefinitionInput } from '../../src/index.js'
import { assertValidDefinition as fromTools } from '../../src/conversation/tools.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// Definition validation is a development check (issue 32): with NODE_ENV "production" `defineChat`
// runs only a compact check (the definition can be built), and a bundle whose `define` makes NODE_ENV
// "production" carries no byte of the validator. Development behaves as before. Checked on real
// esbuild bundles of defineChat run in a fresh context, and in-process with NODE_ENV set.

const definitionModule = fileURLToPath(new URL('../../src/conversation/define-chat.ts', import.meta.url))
// Only the validator (definition-schema.ts) says this.
const VALIDATOR_TEXT = 'is not declared in conversation.states'

async function bundle(define: Record<string, string>, minify: boolean): Promise<string> {
  const result = await build({
    stdin: { contents: `export { defineChat } from ${JSON.stringify(definitionModule)}`, loader: 'ts', resolveDir: process.cwd() },
    bundle: true,
    minify,
    format: 'iife',
    globalName: 'chatrail',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    define,
  })
  return result.outputFiles[0]?.text ?? ''
}

/** What `defineChat` in `code`'s context does with `input`: the definition's id, or the error it threw. */
function defineIn(code: string, env: string, input: unknown): string | ChatrailConfigError {
  const sandbox: Record<string, unknown> = { process: { env: { NODE_ENV: env } }, structuredClone }
  vm.runInNewContext(code, sandbox)
  // untyped on purpose: the definitions below are invalid
  const { defineChat: define } = sandbox.chatrail as { defineChat: (input: unknown) => { id: string } }
  try {
    return define(input).id
  } catch (error) {
    return error as ChatrailConfigError
  }
}

const conversation = (initial: string, target: string): Record<string, unknown> => ({ initial, states: { idle: { on: { go: target } }, busy: {} }, routes: [], fallback: { response: 'sorry' } })
// Shaped right, wrong in a way only the full check sees: a transition to an undeclared state.
const undeclaredTarget = { id: 'app', chat: {}, conversation: conversation('idle', 'bsy') }
// Without a declared initial state there is no first state to build: the compact check refuses it.
const misspeltInitial = { id: 'app', chat: {}, conversation: conversation('ilde', 'busy') }

describe('definition validation in production bundles', () => {
  it('a production bundle skips the full check; the same definition throws in development with its path and fix', async () => {
    expect(defineIn(await bundle({ 'process.env.NODE_ENV': '"production"' }, true), 'production', undeclaredTarget)).toBe('app')
    const development = defineIn(await bundle({}, false), 'development', undeclaredTarget)
    expect(isChatrailConfigError(development)).toBe(true)
    expect((development as ChatrailConfigError).issues[0]).toMatchObject({ code: 'unknown_target', path: ['conversation', 'states', 'idle', 'on', 'go'], hint: 'Did you mean "busy"?' })
  })

  it('keeps a compact check in production: a definition that cannot be built is a ChatrailConfigError, not a TypeError', async () => {
    const production = defineIn(await bundle({ 'process.env.NODE_ENV': '"production"' }, true), 'production', misspeltInitial) as ChatrailConfigError
    expect(production.name).toBe('ChatrailConfigError')
    expect(production.issues[0]).toMatchObject({ code: 'definition_invalid', path: [] })
    expect(production.hint).toContain('assertValidDefinition')
    for (const broken of [{ id: 'app', chat: {}, conversation: { initial: 'idle', states: { idle: {} } } }, { id: 7, chat: {} }, { id: 'app', conversation: { initial: 'idle', states: { idle: {} }, routes: [] } }]) {
      const error = defineIn(await bundle({ 'process.env.NODE_ENV': '"production"' }, true), 'production', broken) as ChatrailConfigError
      expect(error.issues[0]?.code).toBe('definition_invalid')
    }
    const development = defineIn(await bundle({}, false), 'development', misspeltInitial) as ChatrailConfigError
    expect(development.issues[0]).toMatchObject({ code: 'unknown_initial', path: ['conversation', 'initial'], hint: 'Did you mean "idle"?' })
  })

  it('drops the validator and the edit distance from the production bundle, and only there', async () => {
    const production = await bundle({ 'process.env.NODE_ENV': '"production"' }, true)
    const development = await bundle({}, true)
    expect(development).toContain(VALIDATOR_TEXT)
    expect(production).not.toContain(VALIDATOR_TEXT)
    expect(production).not.toContain('Array.from({length:')
    expect(production.length).toBeLessThan(development.length / 2)
  })
})

describe('NODE_ENV "production" in-process', () => {
  afterEach(() => void vi.unstubAllEnvs())
  const malformed = (): ChatDefinitionInput => ({ id: 'app', chat: { adapter: scriptedAdapter(['agent']) }, conversation: { initial: 'idle', states: { idle: { on: { go: 'nowhere' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Going.' })] } })

  it('defineChat and createChatSession skip the check; in development both throw', () => {
    vi.stubEnv('NODE_ENV', 'production')
    const definition = defineChat(malformed())
    expect(definition.id).toBe('app')
    expect(createChatSession(malformed(), { lint: false }).getSnapshot().state).toBe('idle')
    vi.stubEnv('NODE_ENV', 'development')
    expect(() => defineChat(malformed())).toThrow(expect.objectContaining({ name: 'ChatrailConfigError', path: ['conversation', 'states', 'idle', 'on', 'go'] }))
    expect(() => createChatSession(malformed(), { lint: false })).toThrow(expect.objectContaining({ name: 'ChatrailConfigError' }))
  })

  it('assertValidDefinition (chatrail/tools) checks whatever NODE_ENV, a defineChat result or a plain object', () => {
    expect(fromTools).toBe(assertValidDefinition)
    vi.stubEnv('NODE_ENV', 'production')
    const unchecked = defineChat(malformed())
    for (const definition of [unchecked, malformed()]) {
      let thrown: unknown
      try {
        assertValidDefinition(definition)
      } catch (error) {
        thrown = error
      }
      expect(isChatrailConfigError(thrown)).toBe(true)
      expect((thrown as ChatrailConfigError).issues[0]).toMatchObject({ code: 'unknown_target', path: ['conversation', 'states', 'idle', 'on', 'go'] })
    }
    const valid: ChatDefinitionInput = { ...malformed(), conversation: { ...malformed().conversation, initial: 'idle', routes: [], states: { idle: { on: { go: 'idle' } } } } }
    expect(() => assertValidDefinition(defineChat(valid))).not.toThrow()
    expect(() => assertValidDefinition(valid)).not.toThrow()
    // a plain object checked once is checked again: it may have changed since
    ;(valid.conversation as { initial: string }).initial = 'nowhere'
    expect(() => assertValidDefinition(valid)).toThrow(expect.objectContaining({ name: 'ChatrailConfigError', path: ['conversation', 'initial'] }))
  })

  it('resumeChatSession follows createChatSession (it is in the browser entry): unchecked in production', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    const storage = { load: () => undefined, save: () => true }
    const session = await resumeChatSession(malformed(), { sessionId: 's1', storage, lint: false })
    expect(session.getSnapshot().state).toBe('idle')
    vi.stubEnv('NODE_ENV', 'development')
    await expect(resumeChatSession(malformed(), { sessionId: 's1', storage, lint: false })).rejects.toThrow(/undeclared state/)
  })
})
