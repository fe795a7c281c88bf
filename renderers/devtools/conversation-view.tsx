import { useEffect, type ReactNode } from 'react'
import type { ConversationDetail, DevtoolsDefinition } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'
import { DiagramPanel } from './diagram-panel.js'
import { EarlierTurns } from './earlier-turns.js'
import { ExportButton } from './export-button.js'
import { TurnRows } from './turn-rows.js'
import { useResource } from './use-resource.js'
import { WhatIf } from './what-if.js'

/**
 * One conversation: a summary (definition, state, running), Export, the state diagram with the
 * path taken beside what-if (the overview first), then the messages side by side with their turns. Reloads when the live events say the
 * conversation was written (`liveVersion` changes), keeping what it shows until the new read is in.
 */

export interface ConversationViewProps {
  readonly client: DevtoolsClient
  readonly conversationId: string
  readonly definitions: readonly DevtoolsDefinition[]
  /** The conversation's version as the live events last reported it. */
  readonly liveVersion?: number
  readonly onBack: () => void
}

/** How soon a partly read conversation is read again. */
const PARTIAL_RELOAD_MS = 1000

function turnsText(detail: ConversationDetail): string {
  const { page, turns } = detail
  if (page.turnCount === null) return `the newest ${turns.length}`
  return page.turnCount === turns.length ? String(turns.length) : `${page.turnCount}, the newest ${turns.length} shown`
}

export function ConversationView({ client, conversationId, definitions, liveVersion, onBack }: ConversationViewProps): ReactNode {
  const detail = useResource(conversationId, (signal) => client.conversation(conversationId, signal))
  const { reload } = detail
  const shownVersion = detail.value?.version
  useEffect(() => {
    if (liveVersion !== undefined && shownVersion !== undefined && liveVersion !== shownVersion) reload()
  }, [liveVersion, shownVersion, reload])
  // a long conversation opened before it was read whole: read it again once the server has
  const complete = detail.value?.page.complete
  useEffect(() => {
    if (complete !== false) return undefined
    const timer = setTimeout(reload, PARTIAL_RELOAD_MS)
    return () => clearTimeout(timer)
  }, [complete, shownVersion, reload])
  const value = detail.value
  const definition = value === undefined ? undefined : definitions.find((candidate) => candidate.id === value.definition.id)
  return (
    <section data-devtools-conversation={conversationId} aria-labelledby="devtools-conversation-heading">
      <button type="button" data-devtools-back="" onClick={onBack}>← All conversations</button>
      <h2 id="devtools-conversation-heading">Conversation <code>{conversationId}</code></h2>
      {value === undefined ? (
        detail.status === 'failed' ? <p role="alert">{detail.error.message}</p> : <p aria-busy="true">Loading the conversation…</p>
      ) : (
        <>
          {detail.status === 'failed' && <p role="alert">Could not refresh: {detail.error.message}</p>}
          <dl data-devtools-summary="">
            <dt>Definition</dt><dd>{value.definition.id} revision {value.definition.revision}{value.known ? '' : ' (not served here)'}</dd>
            <dt>State</dt><dd data-devtools-current-state="">{value.state ?? 'unknown'}</dd>
            <dt>Turns</dt><dd>{turnsText(value)} (version {value.version})</dd>
            <dt>Last written</dt><dd><time dateTime={value.updatedAt}>{new Date(value.updatedAt).toLocaleString()}</time>{value.running ? ' · a turn is running' : ''}</dd>
          </dl>
          <ExportButton client={client} conversationId={conversationId} />
          <div data-devtools-detail-grid="">
            {definition !== undefined && (
              <div data-devtools-side="">
                <DiagramPanel definition={definition} turns={value.turns} {...(value.state === null ? {} : { current: value.state })} />
                <WhatIf client={client} definition={definition} {...(value.state === null ? {} : { initialState: value.state })} />
              </div>
            )}
            <section data-devtools-turns-panel="" aria-labelledby="devtools-turns-heading">
              <h3 id="devtools-turns-heading">Messages and turns</h3>
              {!value.page.complete && <p role="status" data-devtools-partial="">Showing the newest turns as their decision records say while the whole conversation is read; this view updates when it is.</p>}
              {value.page.complete && value.page.earlier !== undefined && (
                <EarlierTurns key={value.version} client={client} conversationId={conversationId} earlier={value.page.earlier} firstTurn={value.page.firstTurn} />
              )}
              {value.turns.length === 0 && value.messages.length === 0 ? <p>No messages yet.</p> : <TurnRows detail={value} client={client} />}
            </section>
          </div>
        </>
      )}
    </section>
  )
}
