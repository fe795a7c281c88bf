import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { isStoreLeaseError, pgliteStore, postgresStore, type ConversationStore } from '../../src/store/index.js'
import { exited, startChild } from './support/child.js'
import { pgliteDataDirFromTemplate } from '../support/pglite-template.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'

// A process claims a turn and is SIGKILLed before writing. After the lease expires another
// process claims and completes; a write with the dead process's token is refused. The clocks are
// injected (the dead process at T, the survivor at T + lease + 1), so nothing waits on real time.
// PGlite directories start as copies of a migrated template (test/support/pglite-template.ts): the
// subject is the crash and the reopen, not initdb.

const T = Date.UTC(2030, 0, 1)
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const turn = (text: string): Message[] => [
  { id: `u-${text}`, role: 'user', content: text, status: 'complete', createdAt: new Date(T) },
  { id: `a-${text}`, role: 'assistant', content: `re: ${text}`, status: 'complete', createdAt: new Date(T) },
]

async function crashAndTakeOver(kind: 'pglite' | 'postgres', target: string, survivor: (clock: () => number) => ConversationStore, schema?: string): Promise<void> {
  // Unique per run: the Postgres database outlives this test (pids repeat).
  const conversationId = `crash-${kind}-${randomUUID()}`
  const { child, reply } = await startChild(['claim-and-hang', kind, target, conversationId, String(T), ...(schema ? [schema] : [])])
  const deadToken = reply.token as number
  child.kill('SIGKILL')
  await exited(child)
  expect(child.signalCode).toBe('SIGKILL')

  let now = T + 500
  const store = survivor(() => now)
  try {
    // Still within the dead process's lease: busy.
    expect(await store.claim(conversationId, 'turn-2', { leaseMs: 1000 })).toMatchObject({ status: 'busy', turnId: 'turn-of-the-dead' })
    now = T + 1001
    const claimed = await store.claim(conversationId, 'turn-2', { leaseMs: 1000 })
    if (claimed.status !== 'claimed') throw new Error('the expired lease must be taken over')
    expect(claimed.lease.token).toBe(deadToken + 1)
    const stale = await store.append(conversationId, { expectedVersion: 0, messages: turn('ghost'), definition: { id: 'crash', revision: 1 }, lease: { turnId: 'turn-of-the-dead', token: deadToken } }).catch((e: unknown) => e)
    expect(isStoreLeaseError(stale) && stale.reason, String(stale)).toBe("fenced")
    await store.append(conversationId, { expectedVersion: 0, messages: turn('survivor'), definition: { id: 'crash', revision: 1 }, lease: claimed.lease, release: 'completed' })
    expect((await store.load(conversationId))?.messages.map((m) => m.id)).toEqual(['u-survivor', 'a-survivor'])
  } finally {
    await store.close()
  }
}

describe('crash: a SIGKILLed lease holder cannot commit after takeover', () => {
  it('PGlite (the data dir reopened by the next process)', async () => {
    const dataDir = await pgliteDataDirFromTemplate()
    dirs.push(dataDir)
    await crashAndTakeOver('pglite', dataDir, (clock) => pgliteStore({ dataDir, clock }))
  }, 120_000)

  requirePostgresInCi()
  it.skipIf(!POSTGRES_URL)(`Postgres (two processes on one database)${POSTGRES_URL ? '' : ` — skipped: ${POSTGRES_SKIP_REASON}`}`, async () => {
    const url = POSTGRES_URL as string
    const schema = freshSchema('crash')
    await crashAndTakeOver('postgres', url, (clock) => postgresStore({ connectionString: url, clock, schema }), schema)
  }, 120_000)
})

describe('PGlite durability', () => {
  it('write, exit the process, reopen: the conversation reads back byte-identical', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chatrail-reopen-'))
    dirs.push(dataDir)
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'Grüße, 世界 — "quotes" \\ and \u2028 separators 🚚', status: 'complete', createdAt: new Date(T), metadata: { chatrail: { event: 'x' } } },
      { id: 'a1', role: 'assistant', content: 'x'.repeat(100_000), status: 'complete', createdAt: new Date(T + 1), toolCalls: [{ id: 't1', name: 'lookup', args: { n: 1.5, deep: [null, true] }, status: 'complete', result: '{}' }], metadata: { chatrail: { v: 1 } } },
    ]
    await pgliteDataDirFromTemplate(join(dataDir, 'db'))
    const file = join(dataDir, 'messages.json')
    writeFileSync(file, JSON.stringify(messages))
    try {
      const { child, reply } = await startChild(['write-and-exit', 'pglite', join(dataDir, 'db'), 'reopen-1', file])
      await exited(child)
      expect(child.exitCode).toBe(0)
      expect(reply.version).toBe(1)
    } finally {
      rmSync(file, { force: true })
    }
    const store = pgliteStore({ dataDir: join(dataDir, 'db') })
    try {
      const loaded = await store.load('reopen-1')
      expect(JSON.stringify(loaded?.messages)).toBe(JSON.stringify(messages))
      expect(loaded?.messages).toEqual(messages)
    } finally {
      await store.close()
    }
  }, 120_000)
})
