import { createChatHandler } from 'chatrail/server'
import { memoryStore } from 'chatrail/store'
import { userIdFromSession } from './auth.js'
import { definition } from './definition.js'

/** The stand-in for the handler module of docs/server.md (`./handler.js`). */
export const handler = createChatHandler({
  definition,
  store: memoryStore(),
  authenticate: async (request) => (await userIdFromSession(request)) ?? null,
})
