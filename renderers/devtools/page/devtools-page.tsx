import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { tokenOfPage } from '../../serve-page/page-address.js'
import { ChatDevtools } from '../chat-devtools.js'

/**
 * The `chatrail serve` devtools page (/devtools/): `<ChatDevtools>` over the API at ./api. The
 * token comes as the chat page's does (`#token=<secret>` once, then this tab's sessionStorage,
 * shared with the chat page of the same tab); the open conversation lives in `?c=<id>`, so a
 * reload or a shared link reopens it, and Back returns to the list.
 */

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

function conversationOfAddress(): string | undefined {
  const given = new URL(window.location.href).searchParams.get('c')
  return given !== null && ID_PATTERN.test(given) ? given : undefined
}

export function DevtoolsPage(): ReactNode {
  const [token] = useState(() => tokenOfPage())
  const [conversationId, setConversationId] = useState(conversationOfAddress)
  const headers = useMemo(() => (token === undefined ? undefined : { authorization: `Bearer ${token}` }), [token])
  const onChange = useCallback((id: string | undefined) => {
    const url = new URL(window.location.href)
    if (id === undefined) url.searchParams.delete('c')
    else url.searchParams.set('c', id)
    window.history.pushState(null, '', url)
    setConversationId(id)
    document.title = id === undefined ? 'chatrail devtools' : `${id} · chatrail devtools`
  }, [])
  useEffect(() => {
    const onPop = (): void => setConversationId(conversationOfAddress())
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])
  // The API sits beside the page: ./api under /devtools/.
  const baseUrl = new URL('api', new URL('./', window.location.href)).pathname
  return (
    <main>
      <ChatDevtools baseUrl={baseUrl} onConversationChange={onChange} {...(headers === undefined ? {} : { headers })} {...(conversationId === undefined ? {} : { conversationId })} />
    </main>
  )
}
