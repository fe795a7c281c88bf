import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from '../store/postgres-env.js'
import { answerText, HOLD_TEXT, TURNS_PER_CONVERSATION, userId, userText } from './support/load-chat.js'
import { percentile, runLoad, type LoadStats } from './support/load-driver.js'
import { readUntil } from './support/harness.js'
import { scriptBundle } from '../support/cli-bundle.js'

// Many instances on one Postgres: three server processes (createChatHandler + toNodeHandler on
// 127.0.0.1) share one real database and nothing else. 200 conversations × 10 turns, each request
// to a random instance, with double-submits, retries and regenerates; afterwards every stored
// conversation is exactly its expected transcript. Then a second run during which one instance is
// SIGKILLed (60 conversations, after 150 turns): clients retry on the others, and every
// conversation still completes, uncorrupted. Between the two, 60 stops across processes: a turn
// held on one instance, the stop POSTed to another; the time until the holder's stream finishes
// (the store wakes the holder through LISTEN/NOTIFY; its poll, every 250 ms here, is the fallback).
// The load also runs on one instance alone, so each run prints turns/s and p50/p99 for one and three.
// Bounded: every conversation has a deadline, and the whole file a timeout.

requirePostgresInCi()
// Built once with esbuild and started with plain node (test/support/cli-bundle.ts), not through tsx.
const instanceScript = await scriptBundle('test/server/support/instance.ts')
const SEED = Number(process.env.CHATRAIL_LOAD_SEED ?? 17)

interface Instance {
  readonly url: string
  readonly child: ChildProcess
}

function startInstance(connectionString: string, schema: string): Promise<Instance> {
  const child = spawn(process.execPath, [instanceScript, connectionString, schema], { stdio: ['ignore', 'pipe', 'pipe'] })
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

const STOPS = 60
const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

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

    it('the same load on one instance (60 conversations × 10 turns): every transcript exact; turns/s and latency beside three instances', async () => {
      const conversations = Array.from({ length: 60 }, (_, i) => `single-${i}`)
      const one = [(instances[0] as Instance).url]
      const stats = await runLoad({ instances: () => one, conversations, concurrency: 50, seed: SEED, deadlineMs: 60_000 })
      console.log(report('one instance', stats))
      expect(stats.mismatches).toEqual([])
      expect(stats.turns).toBe(60 * TURNS_PER_CONVERSATION)
      expect(await checkTranscripts(store, conversations)).toEqual([])
    }, 120_000)

    it('60 stops, each POSTed to another instance than the one holding the turn, end it well within one signal poll', async () => {
      const stopOnce = async (k: number, id: string): Promise<number> => {
        const holder = (instances[k % instances.length] as Instance).url
        const stopper = (instances[(k + 1) % instances.length] as Instance).url
        const running = await post(holder, { id, trigger: 'submit-message', messages: [{ id: `${id}.u0`, role: 'user', parts: [{ type: 'text', text: HOLD_TEXT }] }] })
        const reader = (running.body as ReadableStream<Uint8Array>).getReader()
        await readUntil(reader, (seen) => seen.includes('"text-delta"'))
        const sent = performance.now()
        expect(await (await post(stopper, { id, action: 'stop' })).json()).toEqual({ stopped: true })
        const rest = await readUntil(reader, (seen) => seen.includes('"finishReason":"stop"'))
        const took = performance.now() - sent
        expect(rest).toContain('"type":"finish","finishReason":"stop"')
        await readUntil(reader, () => false)
        return took
      }
      // An instance opens its LISTEN connection with the first turn it runs, so that turn's stop may
      // wait for the connection (it then reads once, as after any reconnect): one stop per instance
      // first, printed apart (this test may run alone, before any load has warmed them).
      const first: number[] = []
      for (let k = 0; k < instances.length; k++) first.push(await stopOnce(k, `stop-first-${k}`))
      const latencies: number[] = []
      for (let k = 0; k < STOPS; k++) latencies.push(await stopOnce(k, `stop-${k}`))
      const ms = (value: number): string => `${value.toFixed(1)} ms`
      console.log(`stop across three processes: from sending the stop to the holder's finish p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))} (${STOPS} stops; signal poll 250 ms); each instance's first: ${first.map(ms).join(', ')}`)
      // a stop found by the poll waits about the whole 250 ms (the holder's first poll is due then)
      expect(percentile(latencies, 50)).toBeLessThan(100)
      expect(percentile(latencies, 99)).toBeLessThan(1000)
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
