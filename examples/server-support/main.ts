// Run: npx tsx examples/server-support/main.ts [dataDir] — then open http://127.0.0.1:8788/
// (PORT changes the port). Stop it (Ctrl-C), start it again: the conversation is where you left it.
import { pgliteStore } from '../../src/store/index.js'
import { createSupportServer } from './server.js'

const dataDir = process.argv[2] ?? './.chatrail-support'
const port = Number(process.env.PORT ?? 8788)
const store = pgliteStore({ dataDir })
const { server } = await createSupportServer(store)
server.listen(port, '127.0.0.1', () => console.log(`server-support on http://127.0.0.1:${port}/ (data in ${dataDir})`))
const stop = (): void => {
  server.close()
  server.closeIdleConnections()
  void store.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
