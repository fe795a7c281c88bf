import { afterEach, describe, expect, it } from 'vitest'
import { permissionConfirmations } from '../../src/conversation/actions.js'
import { defineChat } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { confirmationLedgerOf, memoryStore } from '../../src/store/index.js'
import { eventually, listen } from './support/harness.js'

/**
 * A coding agent's permission request (chatrail/actions' `permissionConfirmations`) kept in the
 * server's store under the conversation's id: the server's endpoints list and decide it like any
 * record, and the process where the agent waits carries the decision out (the allow or the deny),
 * once. The agent itself is stood in for by the gate's verdict; the real CLIs behind the gate:
 * test/agents/adapters/{claude-code,opencode}/*-permission-records.test.ts.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function setup() {
  const definition = defineChat({ id: 'agent', chat: {}, conversation: { initial: 'open', states: { open: {} }, routes: [], fallback: { response: 'ok' } } })
  const store = memoryStore()
  const handler = createChatHandler({ definition, store, authenticate: 'none', confirmations: {} })
  const http = await listen(handler)
  const permissions = permissionConfirmations({ sessionId: 'c1', ledger: confirmationLedgerOf(store), pollMs: 10 })
  closers.push(async () => {
    permissions.dispose()
    await http.close()
    await handler.close({ deadlineMs: 1 })
    await store.close()
  })
  const post = (body: unknown): Promise<Response> => fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { store, permissions, post }
}

describe('agent permission records through the server', () => {
  it('approve-action (twice, at once) answers 202, and the agent hears one allow', async () => {
    const { permissions, post } = await setup()
    const verdict = permissions.ask({ requestId: 'toolu_01', toolName: 'Bash', input: { command: 'npm test' } })
    let listed: Array<{ token: string; status: string; action: unknown }> = []
    await eventually(async () => {
      listed = ((await (await post({ id: 'c1', action: 'list-actions' })).json()) as { confirmations: typeof listed }).confirmations
      return listed.length === 1
    })
    expect(listed[0]).toMatchObject({ status: 'pending', action: { name: 'Bash', input: { command: 'npm test' } } })
    const token = listed[0]!.token
    const answers = await Promise.all([post({ id: 'c1', action: 'approve-action', token }), post({ id: 'c1', action: 'approve-action', token })])
    // decided here, carried out where the agent waits
    expect(answers.map((answer) => answer.status).sort()).toContain(202)
    for (const answer of answers) expect([200, 202]).toContain(answer.status)
    expect(await verdict).toEqual({ allowed: true })
    await eventually(async () => (await permissions.confirmations.get(token))?.status === 'approved')
    expect(await permissions.confirmations.get(token)).toMatchObject({ outcome: { status: 'complete', result: 'allowed' } })
  })

  it('reject-action denies it with the reason; a later approve-action changes nothing', async () => {
    const { permissions, post, store } = await setup()
    const verdict = permissions.ask({ requestId: 'toolu_02', toolName: 'Bash', input: { command: 'rm -rf /' } })
    await eventually(async () => ((await store.listConfirmations?.('c1')) ?? []).length === 1)
    const token = ((await store.listConfirmations?.('c1')) ?? [])[0]!.token
    const rejected = await post({ id: 'c1', action: 'reject-action', token, reason: 'never' })
    expect(((await rejected.json()) as { confirmation: unknown }).confirmation).toMatchObject({ status: 'rejected', reason: 'never' })
    expect(await verdict).toEqual({ allowed: false, reason: 'never' })
    expect(((await (await post({ id: 'c1', action: 'approve-action', token })).json()) as { confirmation: { status: string } }).confirmation.status).toBe('rejected')
  })
})
