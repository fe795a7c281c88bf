import { closestName } from '../conversation/did-you-mean.js'
import { isIdentifier } from '../conversation/identifier.js'
import { badRequest, HttpError } from '../server/http-responses.js'
import type { ConversationStore, ConversationSummary, ListOptions } from '../store/conversation-store.js'
import { encodeCursor } from '../store/store-input.js'
import type { ConversationListItem, ConversationListPage, DevtoolsTurnKind } from './devtools-api.js'
import type { ConversationFacts, DevtoolsContext } from './devtools-context.js'

/**
 * `GET /conversations`: a page of the store's conversations newest first (the store's own order,
 * read on each request: nothing is indexed beforehand, so a write or a deletion shows at once),
 * filtered. The owner and the definition filter in the store; the revision and what only the
 * history says (state, last kind, failed turns) filter here, on each candidate's facts, computed
 * once per stored version (devtools-context.ts: a long conversation's from its newest turns until
 * its whole walk is done, unless the filter needs the whole). A request looks at no more than
 * `MAX_SCANNED` candidates, so a rare filter over a large store answers a short page with a
 * `nextCursor` to go on from, never an unbounded scan.
 */

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 200
const MAX_SCANNED = 2_000
/** The store page a filtered listing reads at a time. */
const SCAN_PAGE = 200
/** Loads in flight at once while a page's facts are computed. */
const PARALLEL = 16

const KINDS: readonly DevtoolsTurnKind[] = ['deterministic', 'agentic', 'repaired', 'fallback', 'form', 'refused', 'unavailable', 'failed', 'replayed', 'pending']
const QUERY_KEYS = ['limit', 'cursor', 'definition', 'revision', 'state', 'lastKind', 'failed']

interface ListFilter {
  readonly limit: number
  readonly after: { readonly updatedAt: number; readonly id: string } | undefined
  readonly definition: string | undefined
  readonly revision: number | undefined
  readonly state: string | undefined
  readonly lastKind: DevtoolsTurnKind | undefined
  readonly failed: boolean
}

/** The devtools cursor: the last item's (updatedAt, id), so the next page starts strictly after it. */
export function encodeListCursor(summary: ConversationSummary): string {
  return `${summary.updatedAt.getTime()}~${summary.conversationId}`
}

function decodeListCursor(cursor: string): ListFilter['after'] {
  const at = cursor.indexOf('~')
  const updatedAt = Number(cursor.slice(0, at))
  const id = cursor.slice(at + 1)
  if (at < 1 || !/^\d+$/.test(cursor.slice(0, at)) || !Number.isSafeInteger(updatedAt) || !isIdentifier(id)) {
    throw badRequest('cursor', `cursor ${JSON.stringify(cursor.slice(0, 80))} is not one this API returned; pass nextCursor from the previous page unchanged, or leave it out for the first page.`, 'invalid_cursor')
  }
  return { updatedAt, id }
}

export function readListQuery(url: URL): ListFilter {
  const query = url.searchParams
  for (const key of query.keys()) {
    if (!QUERY_KEYS.includes(key)) {
      const near = closestName(key, QUERY_KEYS)
      throw badRequest(key, `Unknown query parameter "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; this endpoint takes ${QUERY_KEYS.join(', ')}.`, 'invalid_query')
    }
  }
  const limitText = query.get('limit')
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badRequest('limit', `limit must be an integer from 1 to ${MAX_LIMIT} (got ${JSON.stringify(limitText)}).`, 'invalid_query')
  const revisionText = query.get('revision')
  const revision = revisionText === null ? undefined : Number(revisionText)
  if (revision !== undefined && (!Number.isSafeInteger(revision) || revision < 1)) throw badRequest('revision', `revision must be a positive integer (got ${JSON.stringify(revisionText)}).`, 'invalid_query')
  const lastKindText = query.get('lastKind')
  if (lastKindText !== null && !(KINDS as readonly string[]).includes(lastKindText)) {
    const near = closestName(lastKindText, KINDS)
    throw badRequest('lastKind', `lastKind must be one of ${KINDS.join(', ')} (got ${JSON.stringify(lastKindText)})${near === undefined ? '' : `; did you mean "${near}"?`}`, 'invalid_query')
  }
  const failedText = query.get('failed')
  if (failedText !== null && failedText !== '1' && failedText !== '0' && failedText !== 'true' && failedText !== 'false') throw badRequest('failed', `failed is 1 (only conversations with a failed turn) or 0 (got ${JSON.stringify(failedText)}).`, 'invalid_query')
  const cursor = query.get('cursor')
  return {
    limit,
    after: cursor === null || cursor === '' ? undefined : decodeListCursor(cursor),
    definition: query.get('definition') ?? undefined,
    revision,
    state: query.get('state') ?? undefined,
    lastKind: (lastKindText ?? undefined) as DevtoolsTurnKind | undefined,
    failed: failedText === '1' || failedText === 'true',
  }
}

/**
 * A store written before `list` took `order` answers oldest first: say so rather than list the
 * store backwards (every chatrail store, and any that passes the contract's S17, takes it).
 */
function checkNewestFirst(store: ConversationStore, page: readonly ConversationSummary[]): void {
  for (let i = 1; i < page.length; i++) {
    const newer = page[i - 1] as ConversationSummary
    const older = page[i] as ConversationSummary
    const at = newer.updatedAt.getTime() - older.updatedAt.getTime()
    if (at < 0 || (at === 0 && newer.conversationId < older.conversationId)) {
      throw new HttpError(501, 'store_order_unsupported', `The ${store.kind} store listed conversations oldest first: its list() does not take { order: 'newest' }, which the devtools need. Update the store (chatrail's memory, PGlite and Postgres stores take it; describeStoreContract checks it as S17).`)
    }
  }
}

/**
 * The store's conversations newest first from a devtools cursor, a page of the store at a time:
 * the store's own keyset order (`list({ order: 'newest' })`), so a write shows at once and a
 * deleted conversation is gone at once, with nothing kept between requests.
 */
class NewestFirst {
  private buffer: ConversationSummary[] = []
  private cursor: string | undefined
  private ended = false

  constructor(
    private readonly store: ConversationStore,
    private readonly filter: Pick<ListOptions, 'definitionId' | 'owner'>,
    after: ListFilter['after'],
    private readonly pageSize: number,
  ) {
    this.cursor = after === undefined ? undefined : encodeCursor(after.updatedAt, after.id)
  }

  /** The next candidate, or undefined at the end. */
  async next(): Promise<ConversationSummary | undefined> {
    if (this.buffer.length === 0 && !this.ended) {
      const page = await this.store.list({ ...this.filter, order: 'newest', limit: this.pageSize, ...(this.cursor === undefined ? {} : { cursor: this.cursor }) })
      checkNewestFirst(this.store, page.conversations)
      this.buffer = page.conversations
      this.cursor = page.nextCursor
      this.ended = page.nextCursor === undefined
    }
    return this.buffer.shift()
  }

  /** Whether a candidate may follow (the store said there are more, or some are read and not taken). */
  more(): boolean {
    return this.buffer.length > 0 || !this.ended
  }
}

/**
 * Whether partial facts (a long conversation's newest turns) cannot decide the filter: the last
 * turn's kind is exact from them, a failed turn among them is a failed turn; the state (the walk
 * through today's definition) and the absence of failures need the whole history.
 */
function needsWholeWalk(partial: ConversationFacts, filter: ListFilter): boolean {
  if (filter.lastKind !== undefined && partial.lastKind !== filter.lastKind) return false
  return filter.state !== undefined || (filter.failed && partial.failedTurns === 0)
}

function itemOf(summary: ConversationSummary, facts: ConversationFacts | undefined, known: boolean): ConversationListItem {
  return {
    id: summary.conversationId,
    definition: { id: summary.definition.id, revision: summary.definition.revision },
    known,
    state: facts?.state ?? null,
    lastKind: facts?.lastKind ?? null,
    failedTurns: facts?.failedTurns ?? 0,
    turnCount: facts?.turnCount ?? 0,
    partial: facts?.partial ?? false,
    messageCount: summary.messageCount,
    version: summary.version,
    ...(summary.owner === undefined ? {} : { owner: summary.owner }),
    createdAt: summary.createdAt.toISOString(),
    updatedAt: summary.updatedAt.toISOString(),
  }
}

export async function listConversations(context: DevtoolsContext, url: URL, principal: string | undefined): Promise<ConversationListPage> {
  const filter = readListQuery(url)
  const owner = context.visibleTo(principal)
  const byHistory = filter.state !== undefined || filter.lastKind !== undefined || filter.failed
  const filtered = byHistory || filter.revision !== undefined
  // the owner and the definition are the store's own filters (its indexes); the rest are checked here
  const candidates = new NewestFirst(context.store, { ...(owner === undefined ? {} : { owner }), ...(filter.definition === undefined ? {} : { definitionId: filter.definition }) }, filter.after, filtered ? SCAN_PAGE : filter.limit + 1)
  const items: ConversationListItem[] = []
  let last: ConversationSummary | undefined
  let scanned = 0
  let full = false
  let leftover = false
  while (!full && scanned < MAX_SCANNED) {
    // the next candidates by what the summary says, then their facts in parallel
    const batch: ConversationSummary[] = []
    const room = byHistory ? PARALLEL : Math.min(PARALLEL, filter.limit - items.length)
    while (batch.length < room && scanned < MAX_SCANNED) {
      const summary = await candidates.next()
      if (!summary) break
      scanned += 1
      if (filter.revision !== undefined && summary.definition.revision !== filter.revision) {
        last = summary
        continue
      }
      batch.push(summary)
    }
    if (batch.length === 0) break
    // what is known now (a long conversation's newest turns); a whole walk only when a filter needs it
    const known = await Promise.all(batch.map((summary) => context.facts(summary, false)))
    const facts = byHistory ? await Promise.all(known.map((found, i) => (found?.partial === true && needsWholeWalk(found, filter) ? context.facts(batch[i] as ConversationSummary, true) : found))) : known
    for (let i = 0; i < batch.length; i++) {
      const summary = batch[i] as ConversationSummary
      const found = facts[i]
      last = summary
      // gone since the store listed it (deleted, expired)
      if (!found) continue
      if (byHistory) {
        if (filter.state !== undefined && found.state !== filter.state) continue
        if (filter.lastKind !== undefined && found.lastKind !== filter.lastKind) continue
        if (filter.failed && found.failedTurns === 0) continue
      }
      items.push(itemOf(summary, found, context.definitions.has(summary.definition.id)))
      if (items.length === filter.limit) {
        // a full page: the next one starts after this item (candidates read past it are read again then)
        full = true
        leftover = i < batch.length - 1
        break
      }
    }
  }
  const more = full ? leftover || candidates.more() : scanned >= MAX_SCANNED && candidates.more()
  return { conversations: items, ...(more && last ? { nextCursor: encodeListCursor(last) } : {}) }
}

/** The newest unfiltered page's facts computed (what the first listing shows), reading only that page. */
export async function warmUp(context: DevtoolsContext): Promise<void> {
  const { conversations } = await context.store.list({ order: 'newest', limit: DEFAULT_LIMIT })
  for (let i = 0; i < conversations.length; i += PARALLEL) await Promise.all(conversations.slice(i, i + PARALLEL).map((summary) => context.facts(summary, false)))
}
