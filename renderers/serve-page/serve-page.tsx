import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { chatThemeCss } from '../../src/conversation/theme-css.js'
import type { ServePageConfig } from '../../src/cli/serve/page-config.js'
import type { ChatDefinition } from '../../src/conversation/index.js'
import { humanizeEvent } from '../../src/view/event-routes.js'
import { entryLabels } from '../../src/view/entry-labels.js'
import { RemoteChatSession } from '../react/remote-chat-session.js'
import { serveApprovals } from './approval-views.js'
import { PendingApprovals } from '../react/pending-approvals.js'
import { browserDefinitionOf } from './browser-definition.js'
import { conversationIdOfPage, tokenOfPage } from './page-address.js'
import { pageLabels } from './page-labels.js'

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
  if (response.status === 401) throw new Error(pageLabels.needsToken)
  if (!response.ok) throw new Error(pageLabels.serverAnswered(response.status, CONFIG))
  return (await response.json()) as ServePageConfig
}

export function ServePage(): ReactNode {
  const [address] = useState(() => ({ id: conversationIdOfPage(), token: tokenOfPage() }))
  const [definition, setDefinition] = useState<ChatDefinition | undefined>()
  const [failure, setFailure] = useState<string | undefined>()
  // approval requests bound to their records only when the server serves the confirmation endpoints
  const [confirmations, setConfirmations] = useState(false)
  useEffect(() => {
    let live = true
    readConfig(address.token).then(
      (config) => {
        if (!live) return
        setDefinition(browserDefinitionOf(config))
        setConfirmations(config.confirmations === true)
      },
      (error: unknown) => { if (live) setFailure(error instanceof Error ? error.message : String(error)) },
    )
    return () => { live = false }
  }, [address])
  const remote = useMemo(() => ({ api: API, conversationId: address.id, headers: authHeaders(address.token) }), [address])
  const approvals = useMemo(() => serveApprovals(remote), [remote])
  const name = definition === undefined ? 'chatrail serve' : humanizeEvent(definition.id)
  useEffect(() => { document.title = `${name} · chatrail serve` }, [name])

  return (
    <main data-app="">
      <header data-app-header="">
        <h1>{name}</h1>
        {/* Without ?c= the page makes a new conversation id; the old one stays stored on the server. */}
        <p><a href="./" data-serve-new="">{pageLabels.newConversation}</a></p>
      </header>
      {failure !== undefined ? (
        <p role="alert" data-serve-error="">{failure}</p>
      ) : definition === undefined ? (
        <p data-serve-loading="" aria-busy="true">{pageLabels.loading}</p>
      ) : (
        <>
          {/* the definition's theme (tokens the server resolved and checked) over the stylesheet's defaults */}
          {definition.theme === undefined ? null : <style data-serve-theme="">{chatThemeCss(definition.theme)}</style>}
          <RemoteChatSession definition={definition} remote={remote} componentViews={confirmations ? approvals.views : undefined} title={pageLabels.chatOf(name)} placeholder={placeholderOf(definition)}>
            {confirmations ? <PendingApprovals source={approvals.source} /> : null}
          </RemoteChatSession>
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
  return command?.kind === 'command' ? pageLabels.placeholderWithCommand(command.command) : entryLabels.placeholder
}
