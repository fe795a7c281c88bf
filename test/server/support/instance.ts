// One server instance of the many-instance test, as its own process: createChatHandler over a
// Postgres store, behind node:http on 127.0.0.1 (a free port). Prints {"port":n} once listening.
// Usage: instance.ts <postgres url> <schema>. Nothing from argv reaches a shell.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createChatHandler, toNodeHandler } from '../../../src/server/index.js'
import { postgresStore } from '../../../src/store/index.js'
import { loadChat } from './load-chat.js'

const [connectionString, schema] = process.argv.slice(2)
if (!connectionString || !schema) throw new Error('usage: instance.ts <postgres url> <schema>')

const store = postgresStore({ connectionString, schema, max: 8 })
// a short lease, so the test's SIGKILL frees the dead instance's conversations within seconds
const handler = createChatHandler({ definition: loadChat(), store, authenticate: 'none', limits: { leaseMs: 1500, signalPollMs: 250 } })
const server = createServer({ keepAliveTimeout: 30_000 }, toNodeHandler(handler))
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`)
})
