/**
 * The prompts sent from one chat, for ↑/↓ and Ctrl+R, as pure steps over plain values (the
 * chat keeps them in refs). Entries are oldest first, bounded, and a prompt sent twice in a row
 * is kept once, as shells do. Browsing keeps the unsent draft and gives it back on the way down.
 */

export interface PromptHistory {
  readonly entries: readonly string[]
  /** The most entries kept; the oldest go first. */
  readonly limit: number
}

/** Where ↑/↓ stand: an entry (its index), or the draft (`index` undefined). */
export interface HistoryBrowse {
  readonly index: number | undefined
  /** What the composer held before the first ↑: restored when ↓ walks past the newest entry. */
  readonly draft: string
}

/** Ctrl+R: the query typed so far, the entry it matched, and the draft to go back to. */
export interface HistorySearch {
  readonly query: string
  /** The entry shown (its index), undefined before the first match. */
  readonly match: number | undefined
  /** The last step found nothing (the prompt says `failed`); `match` stays the last one found. */
  readonly failed: boolean
  readonly draft: string
}

export const HISTORY_LIMIT = 100

export function emptyHistory(limit = HISTORY_LIMIT): PromptHistory {
  return { entries: [], limit: Math.max(1, limit) }
}

export const atDraft: HistoryBrowse = { index: undefined, draft: '' }

/** Pure: `history` with `text` as its newest entry (a blank text or a repeat of the newest is not added). */
export function recordPrompt(history: PromptHistory, text: string): PromptHistory {
  if (text.trim() === '' || history.entries.at(-1) === text) return history
  return { ...history, entries: [...history.entries, text].slice(-history.limit) }
}

/**
 * Pure: one step up (older) from `browse`, `current` being the composer's text now (kept as
 * the draft on the first step). Undefined when there is nothing older.
 */
export function historyOlder(history: PromptHistory, browse: HistoryBrowse, current: string): { browse: HistoryBrowse; text: string } | undefined {
  const index = (browse.index ?? history.entries.length) - 1
  const text = history.entries[index]
  if (index < 0 || text === undefined) return undefined
  return { browse: { index, draft: browse.index === undefined ? current : browse.draft }, text }
}

/** Pure: one step down (newer); past the newest entry, the draft. Undefined when already at the draft. */
export function historyNewer(history: PromptHistory, browse: HistoryBrowse): { browse: HistoryBrowse; text: string } | undefined {
  if (browse.index === undefined) return undefined
  const index = browse.index + 1
  const text = history.entries[index]
  if (text === undefined) return { browse: { index: undefined, draft: '' }, text: browse.draft }
  return { browse: { index, draft: browse.draft }, text }
}

/** The newest entry before `before` that holds `query` (ignoring case), if any. */
function findBefore(entries: readonly string[], query: string, before: number): number | undefined {
  const needle = query.toLowerCase()
  for (let index = Math.min(before, entries.length) - 1; index >= 0; index -= 1) {
    if ((entries[index] ?? '').toLowerCase().includes(needle)) return index
  }
  return undefined
}

export function startSearch(draft: string): HistorySearch {
  return { query: '', match: undefined, failed: false, draft }
}

/**
 * Pure: the search with `query` as its query, as typing refines it: the entry shown stays if it
 * still matches, else the next older one that does (as bash's reverse-i-search).
 */
export function refineSearch(history: PromptHistory, search: HistorySearch, query: string): HistorySearch {
  if (query === '') return { ...search, query, match: undefined, failed: false }
  const match = findBefore(history.entries, query, (search.match ?? history.entries.length - 1) + 1)
  return match === undefined ? { ...search, query, failed: true } : { ...search, query, match, failed: false }
}

/** Pure: Ctrl+R again, the next older match of the same query (the search stays put, failed, when none is left). */
export function searchOlder(history: PromptHistory, search: HistorySearch): HistorySearch {
  const match = findBefore(history.entries, search.query, search.match ?? history.entries.length)
  return match === undefined ? { ...search, failed: true } : { ...search, match, failed: false }
}

/** Pure: the text a search gives when accepted: its match, else the draft it started from. */
export function searchResult(history: PromptHistory, search: HistorySearch): string {
  return search.match === undefined ? search.draft : (history.entries[search.match] ?? search.draft)
}
