import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { postgresStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema, POSTGRES_URL, requirePostgresInCi } from '../store/postgres-env.js'
import { eventually, listen, sendTurn, userMessage, type Listening } from './support/harness.js'
import { payingDefinition, startPayingModel, type PayRun } from './support/paying-chat.js'

// An endpoint decision continues the paused answer (approval-continuation.ts) on real Postgres: two
// handler instances, each with its own postgresStore on one schema, each asked to approve the same
// call at the same moment, round after round. The call runs once and the answer continues once per
// round (the model is called once more), whichever instance wins the lease.

requirePostgresInCi()
const ROUNDS = 4

describe.skipIf(!POSTGRES_URL)('two instances on one Postgres: an approval continues the answer once', () => {
  const schema = freshSchema('contin')
  let stores: ConversationStore[] = []
  beforeAll(async () => {
    stores = [0, 1].map(() => postgresStore({ connectionString: POSTGRES_URL as string, schema, max: 4 }))
    await Promise.all(stores.map((store) => store.open?.()))
  }, 60_000)
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()))
  })

  it(`one run and one continuation per approval, over ${ROUNDS} rounds of two simultaneous approvals`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const model = await startPayingModel({ amount: round })
      const runs: PayRun[] = []
      const definition = payingDefinition(model, runs)
      const handlers: ChatHandler[] = stores.map((store) => createChatHandler({ definition, store, authenticate: 'none', confirmations: {} }))
      const servers: Listening[] = await Promise.all(handlers.map((handler) => listen(handler)))
      try {
        const id = `round-${round}`
        const [a, b] = servers.map((server) => server.url) as [string, string]
        await sendTurn(a, id, [userMessage('u1', 'pay')])
        const listed = (await (await fetch(a, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, action: 'list-actions' }) })).json()) as { confirmations: Array<{ token: string }> }
        const token = listed.confirmations[0]?.token as string
        const approve = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, action: 'approve-action', token }) }).then((response) => response.json())
        await Promise.all([approve(a), approve(b)])
        await eventually(async () => (await stores[1]?.load(id))?.messages[1]?.content === 'Paying. Done.')
        await Promise.all(handlers.map((handler) => handler.close({ deadlineMs: 5_000 })))
        expect(runs).toHaveLength(1)
        expect(model.requests.filter((request) => !request.side)).toHaveLength(2)
        expect((await stores[0]?.load(id))?.messages).toHaveLength(2)
      } finally {
        await Promise.all(servers.map((server) => server.close()))
        await Promise.all(handlers.map((handler) => handler.close({ deadlineMs: 1 })))
        await model.close()
      }
    }
  }, 120_000)
})
