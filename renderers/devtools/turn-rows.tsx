import type { ReactNode } from 'react'
import type { ConversationDetail, DevtoolsMessage } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'
import { TurnCard } from './turn-card.js'

/**
 * The conversation's messages side by side with its turns: one row per turn, its user message and
 * answer on the left, the turn's card on the right (stacked on a narrow screen). Messages before
 * the first user message (a welcome) get a row of their own.
 */

function MessageBubble({ message }: { message: DevtoolsMessage }): ReactNode {
  return (
    <div data-devtools-message={message.id} data-devtools-role={message.role} data-devtools-status={message.status}>
      <span data-devtools-role-label="">{message.role === 'user' ? (message.uiEvent === undefined ? 'User' : `User · button ${message.uiEvent}`) : message.role === 'assistant' ? 'Answer' : message.role}</span>
      <p>{message.text === '' ? <em>(no text)</em> : message.text}</p>
      {message.status !== 'complete' && <span data-devtools-message-status="">{message.status}</span>}
    </div>
  )
}

export function TurnRows({ detail, client }: { detail: ConversationDetail; client: DevtoolsClient }): ReactNode {
  const byTurn = new Map<number, DevtoolsMessage[]>()
  const before: DevtoolsMessage[] = []
  for (const message of detail.messages) {
    if (message.turn === undefined) before.push(message)
    else byTurn.set(message.turn, [...(byTurn.get(message.turn) ?? []), message])
  }
  return (
    <ol data-devtools-turns="" aria-label="Messages and turns">
      {before.length > 0 && (
        <li data-devtools-row="">
          <div data-devtools-row-messages="">{before.map((message) => <MessageBubble key={message.id} message={message} />)}</div>
          <div data-devtools-row-turn=""><p>Before the first turn.</p></div>
        </li>
      )}
      {detail.turns.map((turn) => (
        <li key={turn.index} data-devtools-row="">
          <div data-devtools-row-messages="">{(byTurn.get(turn.index) ?? []).map((message) => <MessageBubble key={message.id} message={message} />)}</div>
          <div data-devtools-row-turn=""><TurnCard turn={turn} client={client} conversationId={detail.id} /></div>
        </li>
      ))}
    </ol>
  )
}
