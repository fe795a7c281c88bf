import { closestName } from '../conversation/did-you-mean.js'
import { isIdentifier } from '../conversation/identifier.js'
import { badRequest } from '../server/http-responses.js'
import type { ConversationSummary } from '../store/conversation-store.js'
import type { ConversationListItem, ConversationListPage, DevtoolsTurnKind } from './devtools-api.js'
import { newerFirst } from './conversation-index.js'
import type { ConversationFacts, DevtoolsContext } from './devtools-context.js'

/**
 * `GET /conversations`: a page of the newest-first index, filtered. A filter on what only the
 * history says (state, last kind, failed turns) needs each candidate's facts, computed once per
 * stored version; a request looks at no more than `MAX_SCANNED` candidates, so a rare filter over a
 * large store answers a short page with a `nextCursor` to go on from, never an unbounded scan.
 */

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 200
const MAX_SCANNED = 2_000
/** Loads in flight at once while a page's facts are computed. */
const PARALLEL = 16

const KINDS: readonly DevtoolsTurnKind[] = ['deterministic', 'agentic', 'repaired', 'fallback', 'form', 'refused', 'unavailable', 'failed', 'pending']
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

/** Index of the first entry strictly after `after` in newest-first order (binary search). */
function startOf(entries: readonly ConversationSummary[], after: ListFilter['after']): number {
  if (!after) return 0
  const probe = { conversationId: after.id, updatedAt: new Date(after.updatedAt) } as ConversationSummary
  let low = 0
  let high = entries.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (newerFirst(entries[mid] as ConversationSummary, probe) <= 0) low = mid + 1
    else high = mid
  }
  return low
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
    messageCount: summary.messageCount,
    version: summary.version,
    ...(summary.owner === undefined ? {} : { owner: summary.owner }),
    createdAt: summary.createdAt.toISOString(),
    updatedAt: summary.updatedAt.toISOString(),
  }
}

export async function listConversations(context: DevtoolsContext, url: URL, principal: string | undefined): Promise<ConversationListPage> {
  const filter = readListQuery(url)
  await context.index.refresh()
  const entries = context.index.entries()
  const owner = context.visibleTo(principal)
  const byHistory = filter.state !== undefined || filter.lastKind !== undefined || filter.failed
  const items: ConversationListItem[] = []
  let position = startOf(entries, filter.after)
  let scanned = 0
  while (position < entries.length && items.length < filter.limit && scanned < MAX_SCANNED) {
    // the next candidates by what the summary says, then their facts in parallel
    const batch: { summary: ConversationSummary; at: number }[] = []
    const room = byHistory ? PARALLEL : Math.min(PARALLEL, filter.limit - items.length)
    while (position < entries.length && batch.length < room && scanned < MAX_SCANNED) {
      const at = position++
      const summary = entries[at] as ConversationSummary
      scanned += 1
      if (owner !== undefined && summary.owner !== owner) continue
      if (filter.definition !== undefined && summary.definition.id !== filter.definition) continue
      if (filter.revision !== undefined && summary.definition.revision !== filter.revision) continue
      batch.push({ summary, at })
    }
    const facts = await Promise.all(batch.map(({ summary }) => context.facts(summary)))
    for (let i = 0; i < batch.length; i++) {
      const { summary, at } = batch[i] as { summary: ConversationSummary; at: number }
      if (items.length === filter.limit) {
        // a full page: the next one starts at this candidate
        position = at
        break
      }
      const found = facts[i]
      // gone since the index listed it (deleted, expired)
      if (!found) continue
      if (byHistory) {
        if (filter.state !== undefined && found.state !== filter.state) continue
        if (filter.lastKind !== undefined && found.lastKind !== filter.lastKind) continue
        if (filter.failed && found.failedTurns === 0) continue
      }
      items.push(itemOf(summary, found, context.definitions.has(summary.definition.id)))
    }
  }
  const last = entries[position - 1]
  const more = position < entries.length
  return { conversations: items, ...(more && last ? { nextCursor: encodeListCursor(last) } : {}) }
}

/** The index built and the facts of the newest unfiltered page computed (what the first listing shows). */
export async function warmUp(context: DevtoolsContext): Promise<void> {
  await context.index.refresh()
  const newest = context.index.entries().slice(0, DEFAULT_LIMIT)
  for (let i = 0; i < newest.length; i += PARALLEL) await Promise.all(newest.slice(i, i + PARALLEL).map((summary) => context.facts(summary)))
}
