import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from '../store/postgres-env.js'
import { answerText, TURNS_PER_CONVERSATION, userId, userText } from './support/load-chat.js'
import { percentile, runLoad, type LoadStats } from './support/load-driver.js'

// Many instances on one Postgres: three server processes (createChatHandler + toNodeHandler on
// 127.0.0.1) share one real database and nothing else. 200 conversations × 10 turns, each request
// to a random instance, with double-submits, retries and regenerates; afterwards every stored
// conversation is exactly its expected transcript. Then a second run during which one instance is
// SIGKILLed (60 conversations, after 150 turns): clients retry on the others, and every
// conversation still completes, uncorrupted.
// Bounded: every conversation has a deadline, and the whole file a timeout.

requirePostgresInCi()
const instanceScript = join(import.meta.dirname, 'support', 'instance.ts')
const SEED = Number(process.env.CHATRAIL_LOAD_SEED ?? 17)

interface Instance {
  readonly url: string
  readonly child: ChildProcess
}

function startInstance(connectionString: string, schema: string): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', instanceScript, connectionString, schema], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString()
      if (out.includes('\n')) resolve({ url: `http://127.0.0.1:${(JSON.parse(out.split('\n')[0] as string) as { port: number }).port}/api/chat`, child })
    })
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString()
    })
    child.on('exit', (code, signal) => {
      if (!out.includes('\n')) reject(new Error(`instance exited (${code ?? signal}) before listening: ${err}`))
    })
  })
}

const exited = (child: ChildProcess): Promise<void> => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())))

/** Every conversation holds exactly its 10 turns, in order, each answered once: nothing lost, nothing duplicated. */
async function checkTranscripts(store: ConversationStore, conversations: readonly string[]): Promise<string[]> {
  const problems: string[] = []
  for (const conversationId of conversations) {
    const stored = await store.load(conversationId)
    const messages = stored?.messages ?? []
    const expected = Array.from({ length: TURNS_PER_CONVERSATION }, (_, turn) => [
      ['user', userId(conversationId, turn), userText(conversationId, turn), 'complete'],
      ['assistant', '*', answerText(conversationId, turn), 'complete'],
    ]).flat()
    const actual = messages.map((m) => [m.role, m.role === 'user' ? m.id : '*', m.content, m.status])
    if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${conversationId}: ${JSON.stringify(actual)}`)
    if (new Set(messages.map((m) => m.id)).size !== messages.length) problems.push(`${conversationId}: duplicate message ids`)
  }
  return problems
}

function report(label: string, stats: LoadStats): string {
  const seconds = stats.wallMs / 1000
  return `${label}: ${stats.turns} turns in ${seconds.toFixed(1)} s = ${(stats.turns / seconds).toFixed(0)} turns/s; turn latency p50 ${percentile(stats.latencies, 50).toFixed(1)} ms, p99 ${percentile(stats.latencies, 99).toFixed(1)} ms; ${stats.requests} requests, ${stats.conflicts} × 409, ${stats.doubleSubmits} double-submits, ${stats.retries} retries, ${stats.regenerates} regenerates, ${stats.networkErrors} refused connections, ${stats.brokenStreams} cut streams (seed ${SEED})`
}

if (!POSTGRES_URL) {
  describe('many instances on one Postgres', () => it.skip(`skipped: ${POSTGRES_SKIP_REASON}`, () => undefined))
} else {
  const connectionString = POSTGRES_URL
  describe('many instances on one Postgres', () => {
    const schema = freshSchema('many')
    let instances: Instance[] = []
    let store: ConversationStore
    beforeAll(async () => {
      instances = await Promise.all([0, 1, 2].map(() => startInstance(connectionString, schema)))
      store = postgresStore({ connectionString, schema, max: 4 })
    }, 60_000)
    afterAll(async () => {
      for (const instance of instances) instance.child.kill('SIGKILL')
      await Promise.all(instances.map((instance) => exited(instance.child)))
      await store?.close()
    })

    it('200 conversations × 10 turns on three instances: every transcript exact, 0 lost, 0 duplicated', async () => {
      const conversations = Array.from({ length: 200 }, (_, i) => `load-${i}`)
      const live = instances.map((instance) => instance.url)
      const stats = await runLoad({ instances: () => live, conversations, concurrency: 50, seed: SEED, deadlineMs: 60_000 })
      console.log(report('three instances', stats))
      expect(stats.mismatches).toEqual([])
      expect(stats.turns).toBe(200 * TURNS_PER_CONVERSATION)
      expect(stats.doubleSubmits).toBeGreaterThan(0)
      expect(await checkTranscripts(store, conversations)).toEqual([])
    }, 120_000)

    it('SIGKILL one instance mid-run: clients retry on the others, every conversation completes, none corrupted', async () => {
      const conversations = Array.from({ length: 60 }, (_, i) => `kill-${i}`)
      const victim = instances[0] as Instance
      let live = instances.map((instance) => instance.url)
      let killedAt = -1
      const stats = await runLoad({
        instances: () => live,
        conversations,
        concurrency: 50,
        seed: SEED + 1,
        deadlineMs: 60_000,
        onTurn: (completed) => {
          if (killedAt >= 0 || completed < 150) return
          killedAt = completed
          victim.child.kill('SIGKILL')
          // clients learn of it the hard way first (refused or cut requests), then stop picking it
          setTimeout(() => (live = live.filter((url) => url !== victim.url)), 200)
        },
      })
      console.log(report(`one of three SIGKILLed after ${killedAt} turns`, stats))
      await exited(victim.child)
      expect(victim.child.signalCode).toBe('SIGKILL')
      expect(stats.mismatches).toEqual([])
      expect(stats.turns).toBe(60 * TURNS_PER_CONVERSATION)
      expect(await checkTranscripts(store, conversations)).toEqual([])
    }, 120_000)
  })
}
