// A separate process for the crash and reopen tests. Usage (argv after the script):
//   claim-and-hang <kind> <target> <conversationId> <clockMs> [schema]   claims a turn, prints {"token":n}, then waits to be killed
//   write-and-exit <kind> <target> <conversationId> <file>      appends the messages in <file> (JSON), prints {"version":n}, exits
// <kind> is pglite (target: data dir) or postgres (target: URL). Nothing from argv reaches a shell.
import { readFileSync } from 'node:fs'
import type { Message } from '../../../src/contract/message.js'
import { pgliteStore, postgresStore, type ConversationStore } from '../../../src/store/index.js'

const [command, kind, target, conversationId, arg, schema] = process.argv.slice(2)
if (!command || !kind || !target || !conversationId || !arg) throw new Error('usage: store-child <command> <kind> <target> <conversationId> <arg>')

function open(clock?: () => number): ConversationStore {
  return kind === 'pglite' ? pgliteStore({ dataDir: target, clock }) : postgresStore({ connectionString: target as string, clock, ...(schema ? { schema } : {}) })
}

if (command === 'claim-and-hang') {
  const at = Number(arg)
  const store = open(() => at)
  const claimed = await store.claim(conversationId, 'turn-of-the-dead', { leaseMs: 1000 })
  if (claimed.status !== 'claimed') throw new Error(`expected to claim, got ${JSON.stringify(claimed)}`)
  process.stdout.write(`${JSON.stringify({ token: claimed.lease.token })}\n`)
  // Hold the lease "mid-turn" until SIGKILL.
  setInterval(() => undefined, 60_000)
} else if (command === 'write-and-exit') {
  const raw = JSON.parse(readFileSync(arg, 'utf8')) as (Omit<Message, 'createdAt'> & { createdAt: string })[]
  const messages = raw.map((m) => ({ ...m, createdAt: new Date(m.createdAt) }))
  const store = open()
  const result = await store.append(conversationId, { expectedVersion: 0, messages, definition: { id: 'reopen', revision: 1 } })
  await store.close()
  process.stdout.write(`${JSON.stringify({ version: result.version })}\n`)
} else {
  throw new Error(`unknown command ${command}`)
}
