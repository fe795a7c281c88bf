import { commandRoute, defineChat, type SessionSnapshotEnvelope, type SessionStorage } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

/** Snapshots in memory behind the cursor compare-and-swap, each read a fresh copy (as a database returns). */
export function memoryStorage(): SessionStorage & { saved: Map<string, SessionSnapshotEnvelope>; saves: number } {
  const saved = new Map<string, SessionSnapshotEnvelope>()
  const storage = {
    saved,
    saves: 0,
    load: (sessionId: string) => structuredClone(saved.get(sessionId)),
    save(snapshot: SessionSnapshotEnvelope, expected: number | undefined) {
      if (saved.get(snapshot.sessionId)?.cursor !== expected) return false
      saved.set(snapshot.sessionId, structuredClone(snapshot))
      storage.saves += 1
      return true
    },
  }
  return storage
}

export function counted(revision = 1) {
  const calls = { start: 0, name: 0 }
  const model = scriptedAdapter(['agent one', 'agent two', 'agent three', 'agent four'])
  const definition = defineChat({
    id: 'persisted',
    revision,
    chat: { adapter: model },
    conversation: {
      initial: 'idle',
      context: { name: '' },
      states: { idle: { on: { start: 'asking' } }, asking: { on: { named: 'done' } }, done: { final: true } },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: () => `What is your name? (${++calls.start})` }),
        commandRoute({ id: 'name', command: '/name Ada', event: 'named', response: () => ({ text: `Welcome, Ada. (${++calls.name})`, assign: { name: 'Ada' } }) }),
      ],
    },
  })
  return { definition, calls, model }
}

