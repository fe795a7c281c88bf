import { useState } from 'react'
import type { ReactNode } from 'react'
import type { Message } from '../../src/contract/message.js'
import { uiEventOf } from '../../src/conversation/index.js'

const ROLE_LABEL: Record<Message['role'], string> = { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' }

function EditForm({ message, onSave, onCancel }: {
  message: Message
  onSave: (content: string) => void
  onCancel: () => void
}): ReactNode {
  const [draft, setDraft] = useState(message.content)
  return (
    <form data-chatrail-edit="" onSubmit={(event) => { event.preventDefault(); if (draft.trim() !== '') onSave(draft) }}>
      <textarea aria-label="Edit message" data-chatrail-input="" rows={2} value={draft} onChange={(event) => setDraft(event.target.value)} />
      <div data-chatrail-edit-buttons="">
        <button type="submit" data-chatrail-save="" disabled={draft.trim() === ''}>Save and resend</button>
        <button type="button" data-chatrail-cancel="" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}

/**
 * One chat message: `article[data-chatrail-message][data-chatrail-role][data-chatrail-status]`.
 * Content is plain text. A user message (not a UI event) can be edited, which resends it.
 */
export function MessageItem({ message, hiddenToolIds, canEdit, onEdit }: {
  message: Message
  /** Tool calls rendered as dialog cards instead of chips. */
  hiddenToolIds: ReadonlySet<string>
  canEdit: boolean
  onEdit: (messageId: string, content: string) => void
}): ReactNode {
  const [editing, setEditing] = useState(false)
  const event = uiEventOf(message)
  const toolCalls = (message.toolCalls ?? []).filter((call) => !hiddenToolIds.has(call.id))
  const waiting = message.status === 'streaming' && message.content === '' && toolCalls.length === 0
  return (
    <article
      data-chatrail-message=""
      data-chatrail-role={message.role}
      data-chatrail-status={message.status}
      data-chatrail-event={event}
      aria-label={ROLE_LABEL[message.role]}
    >
      {editing
        ? <EditForm message={message} onCancel={() => setEditing(false)} onSave={(content) => { setEditing(false); onEdit(message.id, content) }} />
        : <div data-chatrail-content="">{message.content}{waiting && <span data-chatrail-typing="" role="img" aria-label="Thinking">…</span>}</div>}
      {toolCalls.length > 0 && (
        <ul data-chatrail-tool-calls="">
          {toolCalls.map((call) => <li key={call.id} data-chatrail-tool-call={call.status}>{call.name} · {call.status}</li>)}
        </ul>
      )}
      {canEdit && event === undefined && message.role === 'user' && !editing && (
        <button type="button" data-chatrail-edit-button="" aria-label="Edit message" onClick={() => setEditing(true)}>Edit</button>
      )}
    </article>
  )
}
