import { isIdentifier } from '../conversation/identifier.js'
import { badRequest, HttpError } from '../server/http-responses.js'
import { isChatrailConfigError } from '../conversation/config-error.js'
import type { StoredConversation } from '../store/conversation-store.js'
import type { ConversationDetail, ConversationDetailPage, DevtoolsMessage, DevtoolsTurn } from './devtools-api.js'
import { LARGE_LOG, trimToTurns, type DevtoolsContext, type OpenedConversation } from './devtools-context.js'
import { walkConversation, type WalkedConversation } from './turn-walk.js'

/**
 * `GET /conversations/:id?turns&before`: a page of the stored conversation walked into turns
 * (turn-walk.ts), with whether a turn is running now. First one short read of the conversation's
 * header; then, by what it says:
 * - its whole walk is kept for this stored version (devtools-context.ts `kept`): the page is cut
 *   from it, and its JSON kept beside it, so a 5,000-turn conversation that did not change is
 *   neither loaded, walked nor serialized again;
 * - it is long (over `LARGE_LOG` messages) and not walked yet: only the page's newest messages are
 *   read (the store's ranged `load`), walked on their records alone (`page.complete` false), and the
 *   whole walk is started beside the requests, so the first open of a long conversation costs what
 *   its last page costs;
 * - otherwise it is loaded and walked whole, as an explanation needs it anyway.
 * Reads the lease as a reader of turn parts sees it (never claims, renews or signals it).
 */

const DEFAULT_TURNS = 200
const MAX_TURNS = 1000
/** Messages read per turn asked for, when a page is read from the store rather than cut from a walk (a turn is a user message and usually one answer). */
const MESSAGES_PER_TURN = 3

interface DetailQuery {
  readonly turns: number
  readonly before: string | undefined
}

function readDetailQuery(url: URL): DetailQuery {
  for (const key of url.searchParams.keys()) {
    if (key !== 'turns' && key !== 'before') throw badRequest(key, `Unknown query parameter "${key}"; this endpoint takes turns and before.`, 'invalid_query')
  }
  const turnsText = url.searchParams.get('turns')
  const turns = turnsText === null ? DEFAULT_TURNS : Number(turnsText)
  if (!Number.isSafeInteger(turns) || turns < 1 || turns > MAX_TURNS) throw badRequest('turns', `turns must be an integer from 1 to ${MAX_TURNS} (got ${JSON.stringify(turnsText)}).`, 'invalid_query')
  const before = url.searchParams.get('before') ?? undefined
  if (before !== undefined && !isIdentifier(before)) throw badRequest('before', 'before is page.earlier from a previous answer, unchanged.', 'invalid_query')
  return { turns, before }
}

const gone = (): HttpError => new HttpError(409, 'conversation_changed', 'The turn this page was to end at is no longer stored (the conversation was edited); read the newest turns again.')

function headerOf(summary: Omit<StoredConversation, 'messages'>, known: boolean): Omit<ConversationDetail, 'running' | 'state' | 'context' | 'path' | 'messages' | 'turns' | 'page'> {
  return {
    id: summary.conversationId,
    definition: { id: summary.definition.id, revision: summary.definition.revision },
    known,
    ...(summary.owner === undefined ? {} : { owner: summary.owner }),
    version: summary.version,
    createdAt: summary.createdAt.toISOString(),
    updatedAt: summary.updatedAt.toISOString(),
  }
}

/** The turns [from, to) of a whole walk and their messages (from 0: the ones before the first turn too). */
function cut(walked: WalkedConversation, from: number, to: number): { messages: DevtoolsMessage[]; turns: DevtoolsTurn[] } {
  const messages = walked.messages.filter((message) => (message.turn === undefined ? from === 0 : message.turn >= from && message.turn < to))
  return { messages, turns: walked.turns.slice(from, to) }
}

/** A page cut from the kept whole walk. */
function fromWalk(opened: OpenedConversation, query: DetailQuery, known: boolean): Omit<ConversationDetail, 'running'> {
  const { walked } = opened
  let end = walked.turns.length
  if (query.before !== undefined) {
    // a user message: the turns before its own; an answer (a page that began mid-turn): up to its turn
    const message = walked.messages.find((candidate) => candidate.id === query.before)
    if (!message) throw gone()
    end = message.turn === undefined ? 0 : message.role === 'user' ? message.turn : message.turn + 1
  }
  const start = Math.max(0, end - query.turns)
  const page: ConversationDetailPage = { complete: true, firstTurn: start, turnCount: walked.turns.length, ...(start > 0 ? { earlier: walked.turns[start]?.userMessageId as string } : {}) }
  return { ...headerOf(opened.summary, known), state: walked.state, context: walked.context, path: walked.path, ...cut(walked, start, end), page }
}

/** A page read from the store's newest messages (before `query.before`) and walked on its records alone. */
async function fromRange(context: DevtoolsContext, conversationId: string, principal: string | undefined, query: DetailQuery): Promise<Omit<ConversationDetail, 'running'> | undefined> {
  let stored: StoredConversation
  try {
    stored = await context.load(conversationId, principal, { lastMessages: query.turns * MESSAGES_PER_TURN, ...(query.before === undefined ? {} : { beforeMessage: query.before }) })
  } catch (error) {
    if (isChatrailConfigError(error) && error.issues[0]?.code === 'unknown_message') throw gone()
    throw error
  }
  // a store without ranges answered the whole log: walk it whole instead
  if (stored.range === undefined) return undefined
  const atStart = stored.range.from === 0
  const messages = atStart ? stored.messages : trimToTurns(stored.messages)
  const walked = walkConversation(undefined, messages)
  const start = Math.max(0, walked.turns.length - query.turns)
  const earlier = start > 0 ? walked.turns[start]?.userMessageId : atStart ? undefined : (walked.turns[0]?.userMessageId ?? stored.messages[0]?.id)
  const page: ConversationDetailPage = { complete: false, firstTurn: 0, turnCount: null, ...(earlier === undefined ? {} : { earlier }) }
  const { messages: shown, turns } = cut(walked, start, walked.turns.length)
  // indices from this page's first turn
  const renumbered = turns.map((turn) => ({ ...turn, index: turn.index - start }))
  const shownMessages = shown.map((message) => (message.turn === undefined ? message : { ...message, turn: message.turn - start }))
  return { ...headerOf(stored, context.definitions.has(stored.definition.id)), state: walked.state, context: null, path: walked.path, messages: shownMessages, turns: renumbered, page }
}

/** The detail as JSON text: `running` first, then the rest. */
export async function conversationDetailJson(context: DevtoolsContext, conversationId: string, principal: string | undefined, url: URL): Promise<string> {
  const query = readDetailQuery(url)
  const [head, running] = await Promise.all([context.head(conversationId, principal), isRunning(context, conversationId)])
  const known = context.definitions.has(head.definition.id)
  let opened = context.kept(head)
  // a store without ranges answered the header with the whole log: walk that rather than load it again
  if (!opened && head.range === undefined) {
    await context.walk(head)
    opened = context.kept(head)
  }
  let rest: string | undefined
  if (!opened && (head.range?.total ?? 0) > LARGE_LOG) {
    const page = await fromRange(context, conversationId, principal, query)
    if (page) {
      context.walkSoon(conversationId)
      rest = JSON.stringify(page)
    }
  }
  if (rest === undefined) {
    opened ??= await context.opened(conversationId, principal)
    // the default page (what the page opens on) is kept with the walk; others are cut again
    const usual = query.before === undefined && query.turns === DEFAULT_TURNS
    rest = usual ? (opened.memo.get('detail') as string | undefined) : undefined
    if (rest === undefined) {
      rest = JSON.stringify(fromWalk(opened, query, known))
      if (usual) opened.memo.set('detail', rest)
    }
  }
  return `{"running":${String(running)},${rest.slice(1)}`
}

async function isRunning(context: DevtoolsContext, conversationId: string): Promise<boolean> {
  const read = context.store.readTurnParts
  if (typeof read !== 'function') return false
  const { lease } = await read.call(context.store, conversationId, { parts: false })
  return lease?.held === true
}
