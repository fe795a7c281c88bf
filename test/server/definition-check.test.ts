import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { runExplainCommand } from '../../src/cli/explain.js'
import { isChatrailConfigError, type ChatrailConfigError } from '../../src/conversation/config-error.js'
import { commandRoute, defineChat, type ChatDefinition, type ChatDefinitionInput } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, openStoredChat } from '../../src/store/index.js'
import { runConversation, scriptedAdapter } from '../../src/testing/index.js'
import { loadDefinition } from '../../src/testing/conversations/definition-loader.js'

/**
 * A production `defineChat` skips the full definition check (issue 32: it is a development check in
 * browser bundles); every server path checks whatever NODE_ENV, so a malformed definition never
 * serves: the handler, the CLI's definition loader (serve, explain, test, export), chatrail/store's
 * `openStoredChat` and the testing kit's `runConversation`. NODE_ENV is "production" in every test.
 */

// A transition to an undeclared state: only the full check sees it.
const malformedInput = (): ChatDefinitionInput => ({
  id: 'app',
  chat: { adapter: scriptedAdapter(['agent']) },
  conversation: { initial: 'idle', states: { idle: { on: { go: 'nowhere' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Going.' })] },
})
const ISSUE = { code: 'unknown_target', path: ['conversation', 'states', 'idle', 'on', 'go'] }

function thrownBy(call: () => unknown): ChatrailConfigError {
  try {
    call()
  } catch (error) {
    if (isChatrailConfigError(error)) return error
    throw error
  }
  throw new Error('nothing was thrown')
}

let malformed: ChatDefinition
beforeEach(() => {
  vi.stubEnv('NODE_ENV', 'production')
  malformed = defineChat(malformedInput())
})
afterEach(() => void vi.unstubAllEnvs())

describe('server paths check a definition whatever NODE_ENV (issue 32)', () => {
  it('a production defineChat lets it through (the premise)', () => {
    expect(malformed.id).toBe('app')
  })

  it('createChatHandler refuses it with the issue, its path and fix', () => {
    const error = thrownBy(() => createChatHandler({ definition: malformed, store: memoryStore(), authenticate: 'none' }))
    expect(error.issues[0]).toMatchObject(ISSUE)
    expect(error.hint).toContain('Declared states: "idle"')
  })

  it('openStoredChat and runConversation reject it', async () => {
    const controller = { getState: () => ({ messages: [] }), subscribe: () => () => undefined, setMessages: () => undefined }
    await expect(openStoredChat({ store: memoryStore(), definition: malformed, conversationId: 'c1', createController: () => controller } as never)).rejects.toMatchObject({ name: 'ChatrailConfigError', issues: [ISSUE] })
    await expect(runConversation(malformed, [{ user: '/go' }])).rejects.toMatchObject({ name: 'ChatrailConfigError', issues: [ISSUE] })
  })

  it("the CLI's definition loader refuses it: chatrail explain exits 1 naming the issue", async () => {
    await expect(loadDefinition('malformed', 'default', async () => ({ default: malformed }))).rejects.toMatchObject({ name: 'ChatrailConfigError', issues: [ISSUE] })
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-definition-check-'))
    try {
      // a plain object is a definition to the loader (its shape); the full check runs on it all the same
      writeFileSync(join(dir, 'bot.mjs'), `export default ${JSON.stringify({ id: 'app', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { go: 'nowhere' } } }, routes: [], fallback: { response: 'no' } } })}\n`)
      const stderr: string[] = []
      const status = await runExplainCommand(['bot.mjs', 'hello'], { stdout: () => undefined, stderr: (text) => void stderr.push(text), cwd: dir })
      expect(status).toBe(1)
      expect(stderr.join('\n')).toContain('undeclared state "nowhere"')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a valid definition serves as before', () => {
    const valid = defineChat({ ...malformedInput(), conversation: { initial: 'idle', routes: [], states: { idle: { on: { go: 'idle' } } } } })
    expect(() => createChatHandler({ definition: valid, store: memoryStore(), authenticate: 'none' })).not.toThrow()
  })
})
