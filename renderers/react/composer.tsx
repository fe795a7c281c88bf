import { useEffect, useLayoutEffect, useRef } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import type { Message } from '../../src/contract/message.js'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { dialogCardId } from './follow-scroll.js'
import { statusWordsOf } from './state-badge.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface ComposerProps {
  chat?: UseChatSessionReturn<JsonObject>
  placeholder?: string
  /** Hide Retry / Regenerate (e.g. when the app renders its own). */
  hideTurnActions?: boolean
}

/** Pure: may the last turn be retried / regenerated (an assistant reply to a user message, idle)? */
export function canReplayLastTurn(messages: readonly Message[], streaming: boolean): boolean {
  const last = messages.at(-1)
  return !streaming && last?.role === 'assistant' && messages.at(-2)?.role === 'user'
}

function focusCard(toolId: string): void {
  const card = document.getElementById(dialogCardId(toolId))
  card?.scrollIntoView({ block: 'start' })
  card?.focus({ preventScroll: true })
}

/**
 * The message composer: a textarea that grows with its text (up to the stylesheet's max-height;
 * Enter sends, Shift+Enter breaks the line, Esc stops a reply), Send or Stop, Retry and
 * Regenerate. While an agent dialog is pending it collapses to a one-line note pointing at the
 * card, plus Stop: free text cannot answer a picker (seed 001); once the dialog is answered the
 * focus comes back to the textarea (the card it was on is gone).
 */
export function Composer({ chat, placeholder = 'Type a message…', hideTurnActions = false }: ComposerProps): ReactNode {
  const { input, setInput, send, stop, retry, regenerate, status, messages, pendingDialog } = useChatFrom(chat, 'Composer')
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
  const stopButton = <button type="button" data-chatrail-stop="" onClick={stop}>Stop</button>

  if (pendingDialog !== undefined) {
    const words = statusWordsOf(status, pendingDialog, false)
    return (
      <div data-chatrail-composer="" data-chatrail-composer-collapsed="">
        {/* No live region: the status badge already says the same words. */}
        <p data-chatrail-composer-note="">
          {pendingDialog.answerable
            ? <button type="button" data-chatrail-goto-dialog="" onClick={() => focusCard(pendingDialog.toolId)}>{words} above ↑</button>
            : words}
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
  const replayable = canReplayLastTurn(messages, streaming)
  return (
    <form data-chatrail-composer="" onSubmit={(event) => { event.preventDefault(); submit() }}>
      <textarea
        ref={box}
        aria-label="Message"
        data-chatrail-input=""
        rows={1}
        placeholder={placeholder}
        value={input}
        onChange={(event) => setInput(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div data-chatrail-composer-actions="">
        {streaming ? stopButton : <button type="submit" data-chatrail-send="" disabled={input.trim() === ''}>Send</button>}
        {!hideTurnActions && (
          <>
            <button type="button" data-chatrail-retry="" disabled={!replayable} onClick={() => { void retry() }}>Retry</button>
            <button type="button" data-chatrail-regenerate="" disabled={!replayable} onClick={() => { void regenerate() }}>Regenerate</button>
          </>
        )}
      </div>
    </form>
  )
}
