import { useState, type ReactNode } from 'react'
import type { ConversationDetail } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'
import { TurnRows } from './turn-rows.js'

/**
 * The turns before the page a conversation opened on, a page at a time on request (the API sends
 * a long conversation's newest turns only). Mounted per shown version: a new write starts over.
 */

export interface EarlierTurnsProps {
  readonly client: DevtoolsClient
  readonly conversationId: string
  /** The opened page's `page.earlier` and first turn. */
  readonly earlier: string
  readonly firstTurn: number
}

type Loading = { readonly status: 'idle' | 'loading' } | { readonly status: 'failed'; readonly error: string }

export function EarlierTurns({ client, conversationId, earlier, firstTurn }: EarlierTurnsProps): ReactNode {
  // oldest first, each page the one before the next
  const [pages, setPages] = useState<readonly ConversationDetail[]>([])
  const [loading, setLoading] = useState<Loading>({ status: 'idle' })
  const oldest = pages[0]
  const before = oldest === undefined ? earlier : oldest.page.earlier
  const first = oldest === undefined ? firstTurn : oldest.page.firstTurn
  const more = (): void => {
    if (before === undefined) return
    setLoading({ status: 'loading' })
    client.conversation(conversationId, undefined, { before }).then(
      (page) => {
        if (!page.page.complete) {
          setLoading({ status: 'failed', error: 'The conversation is still being read whole; try again in a moment.' })
          return
        }
        setPages((shown) => [page, ...shown])
        setLoading({ status: 'idle' })
      },
      (error: unknown) => setLoading({ status: 'failed', error: error instanceof Error ? error.message : String(error) }),
    )
  }
  return (
    <div data-devtools-earlier="">
      {before !== undefined && (
        <p>
          <button type="button" data-devtools-earlier-button="" onClick={more} disabled={loading.status === 'loading'}>
            Show earlier turns ({first} before these)
          </button>
          {loading.status === 'loading' && <span aria-busy="true"> Loading…</span>}
        </p>
      )}
      {loading.status === 'failed' && <p role="alert">{loading.error}</p>}
      {pages.map((page) => <TurnRows key={page.page.firstTurn} detail={page} client={client} />)}
    </div>
  )
}
