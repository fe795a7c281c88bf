import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import type { ConversationListItem, ConversationListQuery, DevtoolsDefinition, DevtoolsTurnKind } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'
import { TURN_KINDS } from './turn-kinds.js'

/**
 * The conversations, newest write first, a page at a time ("Show more"), filtered by state, kind
 * of last turn, failed turns and definition revision. A live update (`liveTick` changes) reads the
 * rows shown again in one request, so a conversation that moved to the top, changed state or left
 * the filter is shown as the store has it now.
 */

export interface ListFilters {
  readonly state?: string
  readonly lastKind?: DevtoolsTurnKind
  readonly failed: boolean
  readonly revision?: number
}

const PAGE = 50
const MAX_PAGE = 200

interface Rows {
  readonly items: readonly ConversationListItem[]
  readonly nextCursor?: string
}

function queryOf(filters: ListFilters): ConversationListQuery {
  return {
    ...(filters.state === undefined ? {} : { state: filters.state }),
    ...(filters.lastKind === undefined ? {} : { lastKind: filters.lastKind }),
    ...(filters.failed ? { failed: true } : {}),
    ...(filters.revision === undefined ? {} : { revision: filters.revision }),
  }
}

export interface ConversationListProps {
  readonly client: DevtoolsClient
  readonly definitions: readonly DevtoolsDefinition[]
  readonly selected?: string
  readonly onSelect: (id: string) => void
  /** Changes on every live event: the list reads its rows again. */
  readonly liveTick: number
}

function Filters({ definitions, filters, onChange }: { definitions: readonly DevtoolsDefinition[]; filters: ListFilters; onChange: (next: ListFilters) => void }): ReactNode {
  const id = useId()
  const states = [...new Set(definitions.flatMap((definition) => definition.states.map((state) => state.name)))]
  return (
    <fieldset data-devtools-filters="">
      <legend>Filter</legend>
      <label htmlFor={`${id}-state`}>State</label>
      <select id={`${id}-state`} value={filters.state ?? ''} onChange={(event) => onChange({ ...filters, ...(event.target.value === '' ? { state: undefined } : { state: event.target.value }) })}>
        <option value="">any</option>
        {states.map((state) => <option key={state} value={state}>{state}</option>)}
      </select>
      <label htmlFor={`${id}-kind`}>Last turn</label>
      <select id={`${id}-kind`} value={filters.lastKind ?? ''} onChange={(event) => onChange({ ...filters, ...(event.target.value === '' ? { lastKind: undefined } : { lastKind: event.target.value as DevtoolsTurnKind }) })}>
        <option value="">any kind</option>
        {TURN_KINDS.map((kind) => <option key={kind} value={kind}>{kind}</option>)}
      </select>
      <label htmlFor={`${id}-revision`}>Revision</label>
      <input id={`${id}-revision`} type="number" min={0} inputMode="numeric" value={filters.revision ?? ''} onChange={(event) => {
        const value = event.target.value
        onChange({ ...filters, ...(value === '' || !Number.isInteger(Number(value)) ? { revision: undefined } : { revision: Number(value) }) })
      }} />
      <label htmlFor={`${id}-failed`} data-devtools-inline=""><input id={`${id}-failed`} type="checkbox" checked={filters.failed} onChange={(event) => onChange({ ...filters, failed: event.target.checked })} /> with failed turns</label>
    </fieldset>
  )
}

export function ConversationList({ client, definitions, selected, onSelect, liveTick }: ConversationListProps): ReactNode {
  const [filters, setFilters] = useState<ListFilters>({ failed: false })
  const [rows, setRows] = useState<Rows | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [loadingMore, setLoadingMore] = useState(false)
  const shown = useRef(0)
  shown.current = rows?.items.length ?? 0
  const read = useCallback((limit: number, signal?: AbortSignal) => client.listConversations({ ...queryOf(filters), limit }, signal), [client, filters])
  useEffect(() => {
    const controller = new AbortController()
    read(Math.min(MAX_PAGE, Math.max(PAGE, shown.current)), controller.signal).then(
      (page) => { setRows({ items: page.conversations, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) }); setError(undefined) },
      (failure: unknown) => { if (!controller.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure)) },
    )
    return () => controller.abort()
  }, [read, liveTick])
  const more = (): void => {
    if (rows?.nextCursor === undefined) return
    setLoadingMore(true)
    client.listConversations({ ...queryOf(filters), limit: PAGE, cursor: rows.nextCursor }).then(
      (page) => {
        setRows((previous) => {
          const seen = new Set(previous?.items.map((item) => item.id))
          return { items: [...(previous?.items ?? []), ...page.conversations.filter((item) => !seen.has(item.id))], ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) }
        })
        setLoadingMore(false)
      },
      (failure: unknown) => { setError(failure instanceof Error ? failure.message : String(failure)); setLoadingMore(false) },
    )
  }
  const changeFilters = (next: ListFilters): void => {
    shown.current = 0
    setFilters(next)
  }
  return (
    <section data-devtools-list="" aria-labelledby="devtools-list-heading">
      <h2 id="devtools-list-heading">Conversations</h2>
      <Filters definitions={definitions} filters={filters} onChange={changeFilters} />
      {error !== undefined && <p role="alert">{error}</p>}
      {rows === undefined ? (error === undefined && <p aria-busy="true">Loading…</p>) : rows.items.length === 0 ? <p>No conversation matches.</p> : (
        <ul data-devtools-conversations="" aria-label="Conversations, newest first">
          {rows.items.map((item) => (
            <li key={item.id}>
              <button type="button" data-devtools-item={item.id} aria-current={item.id === selected ? 'true' : undefined} onClick={() => onSelect(item.id)}>
                <span data-devtools-item-id="">{item.id}</span>
                <span data-devtools-item-meta="">
                  <span data-devtools-item-state="">{item.state ?? 'unknown state'}</span>
                  {' · '}{item.partial ? `${item.turnCount}+ turns (reading the rest)` : `${item.turnCount} ${item.turnCount === 1 ? 'turn' : 'turns'}`}
                  {item.lastKind === null ? '' : ` · last ${item.lastKind}`}
                  {item.failedTurns > 0 ? ` · ${item.failedTurns}${item.partial ? '+' : ''} failed` : ''}
                  {' · '}rev {item.definition.revision}
                </span>
                <time dateTime={item.updatedAt}>{new Date(item.updatedAt).toLocaleString()}</time>
              </button>
            </li>
          ))}
        </ul>
      )}
      {rows?.nextCursor !== undefined && <button type="button" data-devtools-more="" onClick={more} disabled={loadingMore}>{loadingMore ? 'Loading…' : 'Show more'}</button>}
    </section>
  )
}
