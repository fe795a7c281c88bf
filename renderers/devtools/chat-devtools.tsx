import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { DEFAULT_DEVTOOLS_BASE_PATH } from '../../src/devtools/devtools-api.js'
import { ConversationList } from './conversation-list.js'
import { ConversationView } from './conversation-view.js'
import { createDevtoolsClient } from './devtools-client.js'
import { watchConversations, type LiveStatus } from './live-events.js'
import { useResource } from './use-resource.js'

/**
 * `<ChatDevtools>`: the devtools over the JSON API of `createDevtoolsHandler` (chatrail/server's
 * devtools handler, mounted by `chatrail serve` at /devtools/api). The conversation list beside the
 * open conversation (one column on a narrow screen, the list hidden while a conversation is open),
 * live through the API's event stream. It only reads; Export downloads a file.
 * Styles: `import 'chatrail/devtools/styles.css'`; light and dark follow the system, or the
 * `chatrail-light` / `chatrail-dark` class on <html>. It renders no landmark of its own: put it in
 * the page's <main> (the /devtools page does), so it sits in an app's layout without a second one.
 */

export interface ChatDevtoolsProps {
  /** The API's base path or URL. Default `/devtools/api`. */
  readonly baseUrl?: string
  /** Sent with every request, e.g. `{ authorization: 'Bearer <token>' }`. */
  readonly headers?: Readonly<Record<string, string>>
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch
  /** The conversation to open; change it to open another (the page keeps it in its address). */
  readonly conversationId?: string
  /** Called when the user opens a conversation or goes back to the list (`undefined`). */
  readonly onConversationChange?: (conversationId: string | undefined) => void
  /** Follow the API's event stream. Default true. */
  readonly live?: boolean
  /** The page heading. Default "chatrail devtools". */
  readonly title?: string
}

/** The API's default mount. Typed as the API's constant, so the two cannot differ; no runtime import of src/ (the entry reads the API's types only). */
const DEFAULT_BASE_URL: typeof DEFAULT_DEVTOOLS_BASE_PATH = '/devtools/api'

/** How long live events are gathered into one re-read of the list. */
const LIVE_BATCH_MS = 100

const LIVE_LABEL: Readonly<Record<LiveStatus | 'off', string>> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', off: 'not live' }

export function ChatDevtools({ baseUrl = DEFAULT_BASE_URL, headers, fetch: fetchImpl, conversationId, onConversationChange, live = true, title = 'chatrail devtools' }: ChatDevtoolsProps): ReactNode {
  const headerKey = JSON.stringify(headers ?? {})
  const client = useMemo(
    () => createDevtoolsClient({ baseUrl, ...(headers === undefined ? {} : { headers }), ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }) }),
    // headers by value (headerKey): a new object with the same entries is the same client
    [baseUrl, headerKey, fetchImpl],
  )
  const [open, setOpen] = useState<string | undefined>(conversationId)
  useEffect(() => setOpen(conversationId), [conversationId])
  const select = useCallback((id: string | undefined) => {
    setOpen(id)
    onConversationChange?.(id)
  }, [onConversationChange])

  const definitions = useResource(`${baseUrl}|${headerKey}`, (signal) => client.definitions(signal))
  const [status, setStatus] = useState<LiveStatus | 'off'>(live ? 'connecting' : 'off')
  const [liveTick, setLiveTick] = useState(0)
  const [versions, setVersions] = useState<ReadonlyMap<string, number>>(new Map())
  useEffect(() => {
    if (!live) {
      setStatus('off')
      return undefined
    }
    const controller = new AbortController()
    // A poll reports every conversation written since the last one: a burst of events is one re-read.
    let pending: ReturnType<typeof setTimeout> | undefined
    const changed = new Map<string, number>()
    const flush = (): void => {
      pending = undefined
      const batch = new Map(changed)
      changed.clear()
      setVersions((previous) => new Map([...previous, ...batch]))
      setLiveTick((tick) => tick + 1)
    }
    void watchConversations(client, {
      signal: controller.signal,
      onStatus: setStatus,
      onChange: (event) => {
        changed.set(event.id, event.version)
        pending ??= setTimeout(flush, LIVE_BATCH_MS)
      },
    })
    return () => {
      controller.abort()
      if (pending !== undefined) clearTimeout(pending)
    }
  }, [client, live])

  const defs = definitions.value?.definitions ?? []
  return (
    <div data-chatrail-devtools="" {...(open === undefined ? {} : { 'data-devtools-open': '' })}>
      <header data-devtools-header="">
        <h1>{title}</h1>
        <p data-devtools-live={status} role="status">{LIVE_LABEL[status]}</p>
      </header>
      {definitions.status === 'failed' && <p role="alert" data-devtools-error="">{definitions.error.message}</p>}
      <div data-devtools-panes="">
        <div data-devtools-list-pane="">
          <ConversationList client={client} definitions={defs} onSelect={select} liveTick={liveTick} {...(open === undefined ? {} : { selected: open })} />
        </div>
        <div data-devtools-detail-pane="">
          {open === undefined ? (
            <p data-devtools-empty="">Select a conversation to see its turns, its path through the states and why each route did or did not answer.</p>
          ) : (
            <ConversationView key={open} client={client} conversationId={open} definitions={defs} onBack={() => select(undefined)} {...(versions.has(open) ? { liveVersion: versions.get(open) as number } : {})} />
          )}
        </div>
      </div>
    </div>
  )
}
