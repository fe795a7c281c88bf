import type { AdapterRequest } from '../../contract/adapter.js'

/**
 * The conversation an agent's turn belongs to, when its request names it
 * (`context.metadata.conversationId`: chatrail/server names it for a live agent's turns). An
 * adapter shared by many conversations (`chatrail serve --agent`) files each turn's permission
 * requests under it. Pure.
 */
export function conversationOf(request: AdapterRequest): string | undefined {
  const named = request.context?.metadata?.conversationId
  return typeof named === 'string' && named !== '' ? named : undefined
}
