import { useEffect, useLayoutEffect, useRef } from './react-api.js'
import type { KeyboardEvent, ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { dialogCardId } from '../../src/view/follow-scroll.js'
import { entryLabels, useLabels } from './labels.js'
import { MessageUIPart } from './message-ui-part.js'
import { statusWordsOf } from './state-badge.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface ComposerProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Default: `labels.placeholder` ("Type a message…"). */
  placeholder?: string
  /**
   * @deprecated Ignored: the composer has no Retry / Regenerate any more (Regenerate is an action on
   * the last reply, Retry is in the error banner). Kept so existing code type-checks; removed in
   * the next minor release.
   */
  hideTurnActions?: boolean
}

/**
 * The message composer, one row: a textarea that grows with its text (up to the stylesheet's
 * max-height; Enter sends, Shift+Enter breaks the line, Esc stops a reply) and one button, Send or
 * Stop. Its word is its accessible name; the stylesheet shows an icon instead
 * (`data-chatrail-icon`), so the entry carries no SVG and an unstyled page still reads "Send".
 * Retry and Regenerate are not here: they act on a reply, so they sit on it (message-actions.tsx)
 * or in the error banner. While an agent dialog is pending it collapses to a one-line note
 * pointing at the card (a button that goes to it, dialog-link.tsx in the message UI chunk; the
 * bare words until that is in), plus Stop: free text cannot answer a picker (seed 001); once the dialog is answered the
 * focus comes back to the textarea (the card it was on is gone).
 */
export function Composer({ chat, placeholder }: ComposerProps): ReactNode {
  const words = useLabels(entryLabels)
  const { input, setInput, send, stop, status, pendingDialog } = useChatFrom(chat, 'Composer')
  const streaming = status === 'streaming'
  const box = useRef<HTMLTextAreaElement>(null)
  const collapsed = pendingDialog !== undefined
  const wasCollapsed = useRef(collapsed)
  useEffect(() => {
    const active = document.activeElement
    // Only take the focus that the answered card dropped (to <body>), never from elsewhere.
    if (wasCollapsed.current && !collapsed && (active === null || active === document.body)) box.current?.focus()
    wasCollapsed.current = collapsed
  }, [collapsed])
  useLayoutEffect(() => {
    const element = box.current
    if (element === null) return
    element.style.height = 'auto'
    element.style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`
  }, [input, collapsed])
  const stopButton = <button type="button" data-chatrail-stop="" data-chatrail-icon="" onClick={stop}><span>{words.stop}</span></button>

  if (pendingDialog !== undefined) {
    const note = statusWordsOf(status, pendingDialog, false, false, words)
    return (
      <div data-chatrail-composer="" data-chatrail-composer-collapsed="">
        {/* No live region: the status badge already says the same words. */}
        <p data-chatrail-composer-note="">
          {pendingDialog.answerable
            ? <MessageUIPart fallback={note} render={(ui) => <ui.DialogLink cardId={dialogCardId(pendingDialog.toolId)} note={note} />} />
            : note}
        </p>
        {stopButton}
      </div>
    )
  }

  const submit = (): void => {
    if (streaming || input.trim() === '') return
    void send(input)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Escape' && streaming) {
      event.preventDefault()
      stop()
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }
  return (
    <form data-chatrail-composer="" onSubmit={(event) => { event.preventDefault(); submit() }}>
      <textarea
        ref={box}
        aria-label={words.message}
        data-chatrail-input=""
        rows={1}
        placeholder={placeholder ?? words.placeholder}
        value={input}
        onChange={(event) => setInput(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {streaming
        ? stopButton
        : <button type="submit" data-chatrail-send="" data-chatrail-icon="" disabled={input.trim() === ''}><span>{words.send}</span></button>}
    </form>
  )
}
