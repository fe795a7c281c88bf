import type { ConversationDetail } from './devtools-api.js'
import type { DevtoolsContext, OpenedConversation } from './devtools-context.js'

/**
 * `GET /conversations/:id`: the stored conversation walked into turns (turn-walk.ts), whole, with
 * whether a turn is running now. The body's JSON is kept with the walk, per stored version, so a
 * 5,000-turn conversation that did not change is neither loaded, walked nor serialized again
 * (devtools-context.ts `opened`). Reads the conversation and, when the store keeps turn parts, the
 * lease as a reader of them sees it (never claims, renews or signals it).
 */

function detailOf(opened: OpenedConversation, known: boolean): Omit<ConversationDetail, 'running'> {
  const { summary, walked } = opened
  return {
    id: summary.conversationId,
    definition: { id: summary.definition.id, revision: summary.definition.revision },
    known,
    ...(summary.owner === undefined ? {} : { owner: summary.owner }),
    version: summary.version,
    createdAt: summary.createdAt.toISOString(),
    updatedAt: summary.updatedAt.toISOString(),
    state: walked.state,
    context: walked.context,
    path: walked.path,
    messages: walked.messages,
    turns: walked.turns,
  }
}

/** The detail as JSON text: `running` first, then the rest as kept. */
export async function conversationDetailJson(context: DevtoolsContext, conversationId: string, principal: string | undefined): Promise<string> {
  await context.index.refresh()
  const [opened, running] = await Promise.all([context.opened(conversationId, principal), isRunning(context, conversationId)])
  let rest = opened.memo.get('detail') as string | undefined
  if (rest === undefined) {
    rest = JSON.stringify(detailOf(opened, context.definitions.has(opened.summary.definition.id)))
    opened.memo.set('detail', rest)
  }
  return `{"running":${String(running)},${rest.slice(1)}`
}

async function isRunning(context: DevtoolsContext, conversationId: string): Promise<boolean> {
  const read = context.store.readTurnParts
  if (typeof read !== 'function') return false
  const { lease } = await read.call(context.store, conversationId, { parts: false })
  return lease?.held === true
}
