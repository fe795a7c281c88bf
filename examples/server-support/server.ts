import { createServer, type Server } from 'node:http'
import { loadServePage } from '../../src/cli/serve/page-assets.js'
import { PAGE_CONFIG_PATH, pageConfigOf } from '../../src/cli/serve/page-config.js'
import { createChatHandler, toNodeHandler } from '../../src/server/index.js'
import type { ConversationStore } from '../../src/store/index.js'
import { createScriptedAgent, type ScriptedAgent } from '../react-support/src/scripted-agent.js'
import { createSupportBot } from '../support-bot/definition.js'

/**
 * The support bot (examples/support-bot) served over plain node:http: `createChatHandler` at
 * /api/chat (what `useChat` posts to), the chat page `chatrail serve` uses at /, and conversations
 * in any store (main.ts passes PGlite). Unmatched input goes to examples/react-support's scripted
 * agent, so it runs offline; pass a real adapter to `createSupportBot` for a model.
 *
 * A local tool: `authenticate: 'none'` and 127.0.0.1 only. Behind a login, pass a function that
 * returns the user's id (conversations are then that user's own) and bind where you need.
 */
export async function createSupportServer(store: ConversationStore): Promise<{ server: Server; agent: ScriptedAgent }> {
  const agent = createScriptedAgent()
  const definition = createSupportBot(agent)
  const handler = toNodeHandler(createChatHandler({ definition, store, authenticate: 'none' }))
  const { files } = await loadServePage()
  // The page reads the definition's route summary (states, command and event routes: its chips and buttons) from here.
  const config = JSON.stringify(pageConfigOf(definition))
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path === '/api/chat') return handler(req, res)
    if (path === PAGE_CONFIG_PATH) return void res.writeHead(200, { 'content-type': 'application/json' }).end(config)
    const file = req.method === 'GET' ? files.get(path === '/' ? '/index.html' : path) : undefined
    if (file === undefined) return void res.writeHead(404).end('not found')
    res.writeHead(200, { 'content-type': file.contentType }).end(file.contents)
  })
  return { server, agent }
}
