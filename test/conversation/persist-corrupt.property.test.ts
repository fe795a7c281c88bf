import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createChatSession, isChatrailConfigError, resumeChatSession, type SessionSnapshotEnvelope } from '../../src/index.js'
import { assistant, turn, user } from './helpers.js'
import { counted, memoryStorage } from './persist-helpers.js'

/**
 * A stored snapshot is outside input. Whatever one mutation does to a valid envelope (a value
 * replaced by any JSON, a key removed or added, anywhere in the tree), `resumeChatSession` either
 * restores exactly what the mutated envelope says (its state, context, cursor and confirmation
 * records) or throws `ChatrailConfigError`: never another error, never a session in some other state.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function pathsOf(value: Json, path: (string | number)[] = [], into: (string | number)[][] = []): (string | number)[][] {
  into.push(path)
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...path, i], into))
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], into)
  return into
}

type Mutation = { kind: 'set'; value: Json } | { kind: 'delete' } | { kind: 'add'; key: string; value: Json }

function mutate(root: Json, path: (string | number)[], mutation: Mutation): Json {
  if (path.length === 0) {
    if (mutation.kind === 'set') return mutation.value
    if (mutation.kind === 'add' && root !== null && typeof root === 'object' && !Array.isArray(root)) return { ...root, [mutation.key]: mutation.value }
    return mutation.kind === 'delete' ? null : root
  }
  const copy = structuredClone(root) as Record<string | number, Json>
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>
  const last = path.at(-1) as string | number
  if (mutation.kind === 'set') parent[last] = mutation.value
  else if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1)
    else delete parent[last]
  } else {
    const target = parent[last]
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, Json>)[mutation.key] = mutation.value
    else parent[last] = mutation.value
  }
  return copy as Json
}

function canonical(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown
}

async function validEnvelope(): Promise<SessionSnapshotEnvelope> {
  const storage = memoryStorage()
  const { definition } = counted()
  const session = createChatSession(definition, { sessionId: 'prop', storage, clock: () => new Date('2026-07-11T00:00:00Z') })
  const m1 = user('/start', 'u1')
  await turn(session.chat.adapter, [m1])
  await turn(session.chat.adapter, [m1, assistant('What is your name? (1)', 'a1'), user('/name Ada', 'u2')])
  await session.createConfirmation({ executor: { execute: async () => undefined }, now: () => 1_000 }).propose({ name: 'refund', input: { order: 'o-1' } })
  await session.persist()
  return storage.saved.get('prop') as SessionSnapshotEnvelope
}

describe('a corrupt stored snapshot', () => {
  it('round-trips or is ChatrailConfigError, whatever one mutation did', async () => {
    const valid = canonical(await validEnvelope()) as Json
    const paths = pathsOf(valid)
    const { definition } = counted()
    const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      json.map((value) => ({ kind: 'set' as const, value })),
      fc.constant({ kind: 'delete' as const }),
      fc.tuple(fc.string({ maxLength: 12 }), json).map(([key, value]) => ({ kind: 'add' as const, key, value })),
    )
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: paths.length - 1 }), mutation, async (at, change) => {
        const mutated = mutate(valid, paths[at] as (string | number)[], change)
        const storage = { load: () => structuredClone(mutated), save: () => true }
        let resumed
        try {
          resumed = await resumeChatSession(definition, { sessionId: 'prop', storage, lint: false })
        } catch (error) {
          expect(isChatrailConfigError(error), String(error)).toBe(true)
          return
        }
        if (mutated === null) {
          // nothing stored (the documented missing case): a fresh session
          expect(resumed.getSnapshot().state).toBe('idle')
          expect(resumed.getCursor()).toBe(0)
          return
        }
        const envelope = mutated as unknown as SessionSnapshotEnvelope
        expect(resumed.getSnapshot().state).toBe(envelope.conversation.state)
        expect(canonical(resumed.getSnapshot().context)).toEqual(canonical(envelope.conversation.context))
        expect(resumed.getCursor()).toBe(envelope.cursor)
        const saved: SessionSnapshotEnvelope[] = []
        const again = await resumeChatSession(definition, { sessionId: 'prop', lint: false, storage: { load: () => structuredClone(mutated), save: (snapshot) => (saved.push(snapshot), true) } })
        await again.persist()
        expect(canonical(saved[0]?.confirmations)).toEqual(canonical(envelope.confirmations))
        expect(saved[0]?.cursor).toBe(envelope.cursor + 1)
      }),
      { numRuns: 400 },
    )
  })
})
