// Run: npx tsx examples/persistent-chat/main.ts [dataDir] — then
//   curl -s localhost:8787/conversations/demo -d '{"text":"/start"}'
//   curl -s localhost:8787/conversations/demo -d '{"text":"deliver on 2030-05-01"}'
// Stop it, start it again: the conversation is where you left it.
import { pgliteStore } from '../../src/store/index.js'
import { deliveryChat } from './definition.js'
import { createChatServer } from './server.js'

const dataDir = process.argv[2] ?? './.chatrail-data'
const port = Number(process.env.PORT ?? 8787)
const store = pgliteStore({ dataDir })
const server = createChatServer(store, deliveryChat(), process.env.CHATRAIL_RECORD_KEY ? { recordKey: process.env.CHATRAIL_RECORD_KEY } : {})
server.listen(port, '127.0.0.1', () => console.log(`persistent-chat on http://127.0.0.1:${port} (data in ${dataDir})`))
const stop = (): void => {
  server.close()
  void store.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
