import { randomUUID } from '../../src/contract/random-uuid.js'

/**
 * What the page reads from its address. The conversation id lives in `?c=<id>` (a new one is made
 * and put there, so a reload or a shared link reopens the same conversation). A bearer token comes
 * once as `#token=<secret>`: it is kept in sessionStorage for this tab and removed from the
 * address bar, so it does not linger in history or get copied with the link.
 */

const TOKEN_KEY = 'chatrail-serve-token'
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

export function conversationIdOfPage(): string {
  const url = new URL(window.location.href)
  const given = url.searchParams.get('c')
  if (given !== null && ID_PATTERN.test(given)) return given
  const id = `c-${randomUUID()}`
  url.searchParams.set('c', id)
  window.history.replaceState(null, '', url)
  return id
}

export function tokenOfPage(): string | undefined {
  const url = new URL(window.location.href)
  const fromHash = new URLSearchParams(url.hash.slice(1)).get('token')
  if (fromHash !== null && fromHash !== '') {
    sessionStorage.setItem(TOKEN_KEY, fromHash)
    url.hash = ''
    window.history.replaceState(null, '', url)
    return fromHash
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined
}
