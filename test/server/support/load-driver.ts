import { answerText, TURNS_PER_CONVERSATION, userId, userText } from './load-chat.js'

/**
 * The many-instance test's clients: conversations run concurrently, each one turn after another,
 * every request to a random live instance. On the way they do what real clients do: 20 % of
 * submits are double-submitted concurrently (to two instances), some turns are retried after they
 * finished (a network retry: must return the stored answer, same message id) or regenerated (must
 * give the same text again). A refused or broken request (409, a connection refused or cut by a
 * killed instance, a stream without `finish`) is retried on a random live instance.
 */

export interface LoadOptions {
  readonly instances: () => readonly string[]
  readonly conversations: readonly string[]
  /** How many conversations run at once. */
  readonly concurrency: number
  readonly seed: number
  readonly doubleSubmitRate?: number
  readonly retryRate?: number
  readonly regenerateRate?: number
  /** Called after every completed turn (the kill switch watches it). */
  readonly onTurn?: (completed: number) => void
  /** A conversation that needs longer than this fails the run. */
  readonly deadlineMs: number
}

export interface LoadStats {
  turns: number
  requests: number
  conflicts: number
  networkErrors: number
  brokenStreams: number
  doubleSubmits: number
  retries: number
  regenerates: number
  /** Milliseconds from request to `finish`, one per first submit that completed a turn. */
  latencies: number[]
  wallMs: number
  mismatches: string[]
}

/** A small seeded PRNG (mulberry32), so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Outcome {
  readonly kind: 'done' | 'conflict' | 'failed'
  readonly text: string
  readonly messageId: string
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export async function runLoad(options: LoadOptions): Promise<LoadStats> {
  const rand = random(options.seed)
  const stats: LoadStats = { turns: 0, requests: 0, conflicts: 0, networkErrors: 0, brokenStreams: 0, doubleSubmits: 0, retries: 0, regenerates: 0, latencies: [], wallMs: 0, mismatches: [] }
  const pick = (): string => {
    const live = options.instances()
    return live[Math.floor(rand() * live.length)] as string
  }

  const once = async (url: string, body: unknown): Promise<Outcome> => {
    stats.requests++
    let response: Response
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    } catch {
      stats.networkErrors++
      return { kind: 'failed', text: '', messageId: '' }
    }
    if (response.status === 409) {
      stats.conflicts++
      await response.body?.cancel()
      return { kind: 'conflict', text: '', messageId: '' }
    }
    let raw = ''
    try {
      raw = await response.text()
    } catch {
      stats.brokenStreams++
      return { kind: 'failed', text: '', messageId: '' }
    }
    if (response.status !== 200 || !raw.includes('"type":"finish"') || raw.includes('"type":"error"') || !raw.endsWith('data: [DONE]\n\n')) {
      stats.brokenStreams++
      return { kind: 'failed', text: '', messageId: '' }
    }
    const text = [...raw.matchAll(/"type":"text-delta","id":"[^"]*","delta":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join('')
    const messageId = /"type":"start","messageId":"([^"]+)"/.exec(raw)?.[1] ?? ''
    return { kind: 'done', text, messageId }
  }

  /** Sends until one request completes the turn; the deadline bounds it. */
  const until = async (conversationId: string, body: unknown, deadline: number): Promise<Outcome> => {
    for (;;) {
      if (Date.now() > deadline) throw new Error(`conversation ${conversationId} did not complete in time`)
      const outcome = await once(pick(), body)
      if (outcome.kind === 'done') return outcome
      await sleep(5 + rand() * 20)
    }
  }

  const conversation = async (conversationId: string): Promise<void> => {
    const deadline = Date.now() + options.deadlineMs
    for (let turn = 0; turn < TURNS_PER_CONVERSATION; turn++) {
      const expected = answerText(conversationId, turn)
      const message = { id: userId(conversationId, turn), role: 'user', parts: [{ type: 'text', text: userText(conversationId, turn) }] }
      const submit = { id: conversationId, messages: [message], trigger: 'submit-message' }
      const started = performance.now()
      let outcome: Outcome
      if (rand() < (options.doubleSubmitRate ?? 0.2)) {
        stats.doubleSubmits++
        const [a, b] = await Promise.all([once(pick(), submit), once(pick(), submit)])
        if (a.kind === 'done' && b.kind === 'done' && (a.text !== b.text || a.messageId !== b.messageId)) stats.mismatches.push(`${conversationId} turn ${turn}: double submit gave two answers`)
        outcome = a.kind === 'done' ? a : b.kind === 'done' ? b : await until(conversationId, submit, deadline)
      } else {
        outcome = await until(conversationId, submit, deadline)
      }
      stats.latencies.push(performance.now() - started)
      if (outcome.text !== expected) stats.mismatches.push(`${conversationId} turn ${turn}: got ${JSON.stringify(outcome.text)}, expected ${JSON.stringify(expected)}`)
      if (rand() < (options.retryRate ?? 0.1)) {
        stats.retries++
        const again = await until(conversationId, submit, deadline)
        if (again.text !== expected) stats.mismatches.push(`${conversationId} turn ${turn}: a retry got ${JSON.stringify(again.text)}`)
        // the same answer, unless a regenerate by a racing double-submit replaced it (none here)
        if (again.messageId !== outcome.messageId) stats.mismatches.push(`${conversationId} turn ${turn}: a retry got another message id`)
      }
      if (rand() < (options.regenerateRate ?? 0.1)) {
        stats.regenerates++
        const regenerated = await until(conversationId, { id: conversationId, messages: [message], trigger: 'regenerate-message', messageId: outcome.messageId }, deadline)
        if (regenerated.text !== expected) stats.mismatches.push(`${conversationId} turn ${turn}: a regenerate got ${JSON.stringify(regenerated.text)}`)
      }
      stats.turns++
      options.onTurn?.(stats.turns)
    }
  }

  const started = performance.now()
  const queue = [...options.conversations]
  await Promise.all(Array.from({ length: options.concurrency }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await conversation(next)
  }))
  stats.wallMs = performance.now() - started
  return stats
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
