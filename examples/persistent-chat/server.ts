import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createChatController } from '../../src/controller/index.js'
import { IDENTIFIER_PATTERN, type ChatDefinition } from '../../src/index.js'
import { isStoreConflictError, isStoreLeaseError, isStoreUnavailableError, openStoredChat, type ConversationStore } from '../../src/store/index.js'
import type { DeliveryContext } from './definition.js'

/**
 * A chat over plain node:http, persisted in a store (PGlite by default; see main.ts). One request is
 * one turn:
 *
 *   POST /conversations/:id  {"text": "..."}  →  {"reply", "state", "context", "version"}
 *   GET  /conversations/:id                   →  {"messages", "version"}
 *
 * Each turn claims the conversation's lease first (409 when another request holds it), opens the
 * stored chat (history, state and all), sends the text, waits until the turn is stored, and releases
 * the lease. The server keeps nothing between requests, so any number of instances can serve one
 * Postgres (postgresStore) and a restart loses nothing.
 */

const MAX_BODY = 64 * 1024
const LEASE_MS = 30_000

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let size = 0
  const chunks: Buffer[] = []
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > MAX_BODY) throw Object.assign(new Error('body too large'), { status: 413 })
    chunks.push(chunk)
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

export function createChatServer(store: ConversationStore, definition: ChatDefinition<DeliveryContext>, options: { recordKey?: string } = {}): Server {
  let turns = 0
  return createServer((req, res) => {
    void (async () => {
      const match = /^\/conversations\/([^/]+)$/.exec(req.url ?? '')
      const conversationId = match ? decodeURIComponent(match[1] as string) : undefined
      if (!conversationId || !IDENTIFIER_PATTERN.test(conversationId)) return json(res, 404, { error: 'Use /conversations/<id>, with an id of letters, digits and . _ : -' })
      if (req.method === 'GET') {
        const stored = await store.load(conversationId)
        return json(res, 200, { messages: stored?.messages ?? [], version: stored?.version ?? 0 })
      }
      if (req.method !== 'POST') return json(res, 405, { error: 'GET or POST' })
      const body = (await readBody(req)) as { text?: unknown }
      if (typeof body?.text !== 'string' || body.text.trim() === '') return json(res, 400, { error: 'Send {"text": "..."}' })

      const claimed = await store.claim(conversationId, `turn-${process.pid}-${++turns}`, { leaseMs: LEASE_MS })
      if (claimed.status === 'busy') return json(res, 409, { error: 'Another turn of this conversation is running.', retryAfter: claimed.expiresAt })
      const chat = await openStoredChat({
        store, definition, conversationId, lease: claimed.lease,
        session: { lint: false, ...(options.recordKey ? { recordKey: options.recordKey } : {}) },
        createController: (config) => createChatController(config),
      })
      try {
        await chat.controller.send(body.text)
        await chat.flushed()
        const snapshot = chat.session.getSnapshot()
        json(res, 200, { reply: chat.controller.getState().messages.at(-1)?.content, state: snapshot.state, context: snapshot.context, version: chat.memory.version() })
        await store.release(claimed.lease, 'completed')
      } catch (error) {
        await store.release(claimed.lease, 'failed').catch(() => false)
        throw error
      } finally {
        chat.close()
      }
    })().catch((error: unknown) => {
      if (res.headersSent) return
      if (isStoreConflictError(error) || isStoreLeaseError(error)) json(res, 409, { error: (error as Error).message })
      else if (isStoreUnavailableError(error)) json(res, 503, { error: (error as Error).message })
      else if (error instanceof SyntaxError) json(res, 400, { error: 'The body is not JSON.' })
      else json(res, (error as { status?: number }).status ?? 500, { error: error instanceof Error ? error.message : 'failed' })
    })
  })
}
