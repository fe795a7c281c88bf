import { afterEach, describe, expect, it } from 'vitest'
import { servePermissions, type ServePermissions } from '../../src/cli/serve/serve-permissions.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'

/**
 * `chatrail serve --agent`'s permission gate: one agent adapter for every conversation, each
 * request filed as a record of the conversation whose turn asks (its `conversationId`), decided
 * there, and let go once nothing waits. The real CLIs behind it: test/serve/serve-agent-permissions.test.ts.
 */

let store: ConversationStore
let permissions: ServePermissions | undefined
afterEach(async () => {
  permissions?.dispose()
  await store.close()
})

const pendingOf = async (conversationId: string) => {
  for (let tries = 0; tries < 100; tries++) {
    const records = (await store.listConfirmations?.(conversationId)) ?? []
    if (records.length > 0) return records
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return []
}

describe('servePermissions', () => {
  it('files each request under its conversation and principal; the answer decides that record only', async () => {
    store = memoryStore()
    permissions = servePermissions({ store: () => store, principal: 'token', pollMs: 10 })
    const first = permissions.ask({ requestId: 'toolu_a', toolName: 'Bash', input: { command: 'ls' }, conversationId: 'c1' })
    const second = permissions.ask({ requestId: 'toolu_b', toolName: 'Bash', input: { command: 'rm x' }, conversationId: 'c2' })
    const [inFirst] = await pendingOf('c1')
    const [inSecond] = await pendingOf('c2')
    expect(inFirst).toMatchObject({ sessionId: 'c1', principal: 'token', toolCallId: 'toolu_a', status: 'pending', action: { name: 'Bash', input: { command: 'ls' } } })
    expect(inSecond).toMatchObject({ sessionId: 'c2', toolCallId: 'toolu_b' })
    expect(await store.listConfirmations?.('c1')).toHaveLength(1)

    // the agent's own dialog (OpenCode's answerDialog) decides the request's record in its conversation
    await permissions.answer('toolu_b', false, 'ignored', 'not here')
    expect(await second).toEqual({ allowed: false, reason: 'not here' })
    expect(await store.loadConfirmation?.(inSecond?.token as string)).toMatchObject({ status: 'rejected', reason: 'not here' })
    expect(await store.loadConfirmation?.(inFirst?.token as string)).toMatchObject({ status: 'pending' })
    await permissions.answer('toolu_a', true, 'ignored')
    expect(await first).toEqual({ allowed: true })
    // nothing waits any more: no gate is left to answer through
    expect(permissions.answer('toolu_a', true, 'ignored')).toBeUndefined()
  })

  it('a request that names no conversation is denied at once, with why', async () => {
    store = memoryStore()
    permissions = servePermissions({ store: () => store, principal: undefined })
    const verdict = await permissions.ask({ requestId: 'toolu_c', toolName: 'Bash', input: { command: 'ls' } })
    expect(verdict).toMatchObject({ allowed: false, reason: expect.stringContaining('names no conversation') })
  })

  it('dispose denies every request still waiting', async () => {
    store = memoryStore()
    permissions = servePermissions({ store: () => store, principal: undefined })
    const waiting = permissions.ask({ requestId: 'toolu_d', toolName: 'Edit', input: { path: 'a.txt' }, conversationId: 'c3' })
    await pendingOf('c3')
    permissions.dispose()
    expect(await waiting).toMatchObject({ allowed: false })
  })
})
