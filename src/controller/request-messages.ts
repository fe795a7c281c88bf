import type { RetrievedDocument } from '../contract/memory.js'

/**
 * The messages a request prepends and state never holds: their fixed ids and the retrieval
 * message's text. Apart from adapter-request.ts, which builds the request, because the controller's
 * entry exports these: the request's builder is loaded with a turn's code (model-turn-loader.ts),
 * and what the entry exports is part of every app's initial load.
 */

/** Fixed ids for request-only messages: they never enter state, so they never consume `ids()`. */
export const SYSTEM_PROMPT_MESSAGE_ID = 'chatrail-system-prompt'
export const RETRIEVED_DOCUMENTS_MESSAGE_ID = 'chatrail-retrieved-documents'

/** Numbered documents (`[1] …`, with a `Source:` line when known), as the retrieval system message. */
export function formatRetrievedDocuments(documents: readonly RetrievedDocument[]): string {
  const body = documents
    .map((document, index) => {
      const source = document.source ? `\nSource: ${document.source}` : ''
      return `[${index + 1}] ${document.content}${source}`
    })
    .join('\n\n')
  return `Relevant context:\n\n${body}`
}
