import { useLayoutEffect, useRef, useState } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import type { Message } from '../../src/contract/message.js'
import { isComponentPart } from '../../src/contract/component-chunk.js'
import { ComponentSlot } from './component-slot.js'
import { CopyButton } from './copy-button.js'
import { focusComposer } from './focus-composer.js'
import { MarkdownContent } from './markdown-content.js'
import { MessageActions, useRegenerate } from './message-actions.js'
import { useBranches } from './branch-picker.js'
import { MessageExtra, ToolCallsExtra } from './message-extras.js'
import { reasoningOf } from '../../src/view/reasoning.js'
import { useLabels, useMessageUIKit } from './message-ui-context.js'
import { messageAttributesOf } from '../../src/view/message-attributes.js'
import { canEditMessage } from '../../src/view/message-offers.js'
import { messageLabels } from '../../src/view/message-labels.js'

/** Enter saves, Shift+Enter breaks the line, Esc cancels; the box has the focus as it opens. */
function EditForm({ message, onSave, onCancel }: {
  message: Message
  onSave: (content: string) => void
  onCancel: () => void
}): ReactNode {
  const [draft, setDraft] = useState(message.content)
  const words = useLabels(messageLabels)
  const save = (): void => { if (draft.trim() !== '') onSave(draft) }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Escape') { event.preventDefault(); onCancel() }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) { event.preventDefault(); save() }
  }
  return (
    <form data-chatrail-edit="" onSubmit={(event) => { event.preventDefault(); save() }}>
      <textarea
        aria-label={words.editMessage}
        data-chatrail-input=""
        rows={2}
        value={draft}
        autoFocus
        onFocus={(event) => event.currentTarget.setSelectionRange(draft.length, draft.length)}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div data-chatrail-edit-buttons="">
        <button type="submit" data-chatrail-save="" disabled={draft.trim() === ''}>{words.saveAndResend}</button>
        <button type="button" data-chatrail-cancel="" onClick={onCancel}>{words.cancel}</button>
      </div>
    </form>
  )
}

/** An answer's parts in order: text as markdown, each component through the component UI. */
function AnswerParts({ message, streaming }: { message: Message; streaming: boolean }): ReactNode {
  const parts = message.parts ?? []
  return parts.map((part, index) => {
    if (isComponentPart(part)) return <ComponentSlot key={`c:${part.instanceId}`} messageId={message.id} part={part} />
    if (part.type !== 'text' || part.text.trim() === '') return null
    return <MarkdownContent key={index} source={part.text} streaming={streaming && index === parts.length - 1} headingLevel={3} CopyButton={CopyButton} />
  })
}

export interface MessageBodyProps {
  message: Message
  /** A part of the message (layoutStream splits a reply around a dialog it hosted): its text. */
  text?: string
  part?: 'before' | 'after' | 'fallback'
  /** Tool calls rendered as dialog cards instead of chips. */
  hiddenToolIds: ReadonlySet<string>
  canEdit: boolean
  onEdit: (messageId: string, content: string) => void
  /** The user stopped this reply: it keeps its text and says "Stopped". */
  stopped: boolean
  /** Its accessible name, the role's word ("You", "Assistant"), from the entry's labels (`<MessageItem>` names its plain-text stand-in the same). */
  label: string
}

/**
 * One chat message, as the message UI chunk renders it (`<MessageItem>` in the entry shows it as
 * plain text until then): `article[data-chatrail-message][data-chatrail-role][data-chatrail-status]`.
 * Assistant text is markdown, the user's is plain text. Below the bubble, its actions
 * (message-actions.tsx): Copy on every message, Edit on the user's own (not UI events), which
 * resends it, Regenerate on the last reply. A reply the user stopped before any text came is not
 * shown at all.
 */
export function MessageBody({ message, text = message.content, part, hiddenToolIds, canEdit, onEdit, stopped, label }: MessageBodyProps): ReactNode {
  const [editing, setEditing] = useState(false)
  const words = useLabels(messageLabels)
  const kit = useMessageUIKit()
  const onRegenerate = useRegenerate(message.id, part)
  const branches = useBranches(message.id, part)
  const article = useRef<HTMLElement>(null)
  const editButton = useRef<HTMLButtonElement>(null)
  // Esc in the edit box gives the focus back to the Edit button, which mounts again only when the
  // box is gone: focus it after that commit, not from a timer that may run before it.
  const refocusEdit = useRef(false)
  useLayoutEffect(() => {
    if (editing || !refocusEdit.current) return
    refocusEdit.current = false
    editButton.current?.focus()
  }, [editing])
  const toolCalls = part === 'before' ? [] : (message.toolCalls ?? []).filter((call) => !hiddenToolIds.has(call.id))
  const streaming = message.status === 'streaming' && part !== 'before'
  if (stopped && message.content === '' && toolCalls.length === 0) return null
  // Reasoning leads the reply (its first part when split); cited sources close it.
  const reasoning = part === 'after' || part === 'fallback' ? '' : reasoningOf(message)
  const waiting = streaming && text === '' && toolCalls.length === 0 && reasoning === ''
  const sources = part === 'before' ? [] : kit.sourcesOf(message)
  // `canEdit`: no reply streams (the list knows); the rule is the view's
  const editable = canEditMessage(message, !canEdit)
  // A whole answer with components: its parts in order. A reply split around a dialog is agent text only.
  const components = part === undefined && text === message.content && (message.parts ?? []).some(isComponentPart)
  return (
    <article ref={article} {...messageAttributesOf(message, part, stopped)} aria-label={label}>
      {reasoning !== '' && <MessageExtra fallback={null} render={(ui) => <ui.ReasoningSection text={reasoning} streaming={message.status === 'streaming'} />} />}
      {editing
        ? <EditForm
          message={message}
          onCancel={() => { refocusEdit.current = true; setEditing(false) }}
          onSave={(content) => { setEditing(false); focusComposer(article.current); onEdit(message.id, content) }}
        />
        : <div data-chatrail-content="">
          {message.role !== 'assistant' ? text : components
            ? <AnswerParts message={message} streaming={streaming} />
            : <MarkdownContent source={text} streaming={streaming} headingLevel={3} CopyButton={CopyButton} />}
          {waiting && <span data-chatrail-typing="" role="img" aria-label={words.typing}>…</span>}
        </div>}
      {toolCalls.length > 0 && <ToolCallsExtra calls={toolCalls} />}
      {sources.length > 0 && <MessageExtra fallback={null} render={(ui) => <ui.SourceList sources={sources} />} />}
      {!editing && !streaming && part !== 'before' && (
        <MessageActions
          text={text}
          stopped={stopped}
          editButton={editButton}
          onEdit={editable ? () => setEditing(true) : undefined}
          onRegenerate={onRegenerate}
          messageId={message.id}
          branches={branches}
        />
      )}
    </article>
  )
}
