import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { chatThemeCss } from '../../src/conversation/theme-css.js'
import type { ServePageConfig } from '../../src/cli/serve/page-config.js'
import type { ChatDefinition } from '../../src/conversation/index.js'
import { humanizeEvent } from '../react/event-routes.js'
import { RemoteChatSession } from '../react/remote-chat-session.js'
import { browserDefinitionOf } from './browser-definition.js'
import { conversationIdOfPage, tokenOfPage } from './page-address.js'

/**
 * The `chatrail serve` page: the React example's chat (chatrail/react's `<ChatSession>` parts:
 * status badge, welcome with suggestion chips, markdown answers with Copy, dialog cards, event
 * buttons, Start over, Stop, Regenerate) in remote mode (`<RemoteChatSession>`): every turn runs
 * on the server at /api/chat, the badge, buttons and cards mirror its `data-chatrail` part, and a
 * reload restores the conversation from the server (`GET /api/chat?id=`). The definition's routes
 * and states come from the server's summary at /chatrail-serve.json, never the module itself.
 */

const API = '/api/chat'
const CONFIG = '/chatrail-serve.json'

function authHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` }
}

async function readConfig(token: string | undefined): Promise<ServePageConfig> {
  const response = await fetch(CONFIG, { headers: authHeaders(token) })
  if (response.status === 401) throw new Error('This server needs a token: open the address it printed, ending in #token=<secret>.')
  if (!response.ok) throw new Error(`The server answered ${response.status} for ${CONFIG}.`)
  return (await response.json()) as ServePageConfig
}

export function ServePage(): ReactNode {
  const [address] = useState(() => ({ id: conversationIdOfPage(), token: tokenOfPage() }))
  const [definition, setDefinition] = useState<ChatDefinition | undefined>()
  const [failure, setFailure] = useState<string | undefined>()
  useEffect(() => {
    let live = true
    readConfig(address.token).then(
      (config) => { if (live) setDefinition(browserDefinitionOf(config)) },
      (error: unknown) => { if (live) setFailure(error instanceof Error ? error.message : String(error)) },
    )
    return () => { live = false }
  }, [address])
  const remote = useMemo(() => ({ api: API, conversationId: address.id, headers: authHeaders(address.token) }), [address])
  const name = definition === undefined ? 'chatrail serve' : humanizeEvent(definition.id)
  useEffect(() => { document.title = `${name} · chatrail serve` }, [name])

  return (
    <main data-app="">
      <header data-app-header="">
        <h1>{name}</h1>
        {/* Without ?c= the page makes a new conversation id; the old one stays stored on the server. */}
        <p><a href="./" data-serve-new="">New conversation</a></p>
      </header>
      {failure !== undefined ? (
        <p role="alert" data-serve-error="">{failure}</p>
      ) : definition === undefined ? (
        <p data-serve-loading="" aria-busy="true">Loading…</p>
      ) : (
        <>
          {/* the definition's theme (tokens the server resolved and checked) over the stylesheet's defaults */}
          {definition.theme === undefined ? null : <style data-serve-theme="">{chatThemeCss(definition.theme)}</style>}
          <RemoteChatSession definition={definition} remote={remote} title={`${name} chat`} placeholder={placeholderOf(definition)} />
        </>
      )}
    </main>
  )
}

/** "Type a message, or /start": a command the initial state allows, one that moves the conversation first. */
function placeholderOf(definition: ChatDefinition): string {
  const { initial, states, routes } = definition.conversation
  const allowed = new Set(Object.keys(states[initial]?.on ?? {}))
  const commands = routes.filter((route) => route.kind === 'command' && (route.event === undefined || allowed.has(route.event)) && (route.states === undefined || route.states.includes(initial)))
  const command = commands.find((route) => route.event !== undefined) ?? commands[0]
  return command?.kind === 'command' ? `Type a message, or ${command.command}` : 'Type a message'
}
