import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { createChatHandler, createStoredConfirmation } from '../../src/server/index.js'
import { postgresStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from '../store/postgres-env.js'
import { countingAgent, deliveryDefinition, listen, type Listening } from './support/harness.js'

// Invariant 11 on real Postgres: two handler instances, each with its own postgresStore (its own
// pool, its own connections) on one database schema, served over HTTP; two clients approve the
// same token at the same moment, once for each of many tokens. The tool counts executions per
// token: exactly one each, whichever instance wins, and both clients are answered `approved`.

requirePostgresInCi()
const TOKENS = 40

describe.skipIf(!POSTGRES_URL)('two instances on one Postgres approve one token at once', () => {
  const schema = freshSchema('confirm2')
  const executions = new Map<string, number>()
  // the tool takes a while, so the second approval arrives while the first is still executing
  const tools: ToolDefinition[] = [{
    name: 'transfer',
    requiresConfirmation: true,
    execute: async (_input, context) => {
      const key = context.idempotencyKey ?? 'none'
      executions.set(key, (executions.get(key) ?? 0) + 1)
      await new Promise((resolve) => setTimeout(resolve, 20))
      return 'sent'
    },
  }]
  let stores: ConversationStore[] = []
  let servers: Listening[] = []
  beforeAll(async () => {
    stores = [0, 1].map(() => postgresStore({ connectionString: POSTGRES_URL as string, schema, max: 4 }))
    await Promise.all(stores.map((store) => store.open?.()))
    servers = await Promise.all(stores.map((store) => listen(createChatHandler({ definition: deliveryDefinition(countingAgent()), store, authenticate: (r) => r.headers.get('authorization')?.replace(/^Bearer /, '') ?? null, confirmations: { tools } }))))
  }, 60_000)
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await Promise.all(stores.map((store) => store.close()))
  })

  it(`exactly one execution per token over ${TOKENS} simultaneous double approvals`, async () => {
    const proposer = createStoredConfirmation({ store: stores[0] as ConversationStore, conversationId: 'shared', principal: 'alice', tools })
    const proposed = await Promise.all(Array.from({ length: TOKENS }, (_, i) => proposer.propose({ name: 'transfer', input: { n: i } })))
    const approve = (url: string, token: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer alice' }, body: JSON.stringify({ id: 'shared', action: 'approve-action', token }) })
    const answers = await Promise.all(proposed.flatMap(({ token }) => [approve((servers[0] as Listening).url, token), approve((servers[1] as Listening).url, token)]))
    const statuses = await Promise.all(answers.map(async (response) => [response.status, ((await response.json()) as { confirmation?: { status: string } }).confirmation?.status]))
    // each pair: both 200; the winner answers approved, the loser approved too or, while the
    // winner still executes, the record as it stands (approving/executing) — never a second run
    for (const [status, state] of statuses) {
      expect(status).toBe(200)
      expect(['approving', 'executing', 'approved']).toContain(state)
    }
    expect(proposed.map((p) => executions.get(p.idempotencyKey) ?? 0)).toEqual(proposed.map(() => 1))
    const stored = await Promise.all(proposed.map((p) => stores[1]?.loadConfirmation?.(p.token)))
    expect(stored.map((r) => r?.status)).toEqual(proposed.map(() => 'approved'))
  }, 60_000)
})

if (!POSTGRES_URL) describe('two instances on one Postgres', () => it.skip(`skipped: ${POSTGRES_SKIP_REASON}`, () => undefined))
