import type { KeyboardEvent, ReactNode } from 'react'
import type { Message } from '../../src/contract/message.js'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { dialogCardId } from './follow-scroll.js'
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
 * The message composer: a textarea (Enter sends, Shift+Enter breaks the line), Send or Stop,
 * Retry and Regenerate. While an agent dialog is pending it collapses to a one-line note pointing
 * at the card, plus Stop: free text cannot answer a picker (seed 001).
 */
export function Composer({ chat, placeholder = 'Type a message…', hideTurnActions = false }: ComposerProps): ReactNode {
  const { input, setInput, send, stop, retry, regenerate, status, messages, pendingDialog } = useChatFrom(chat, 'Composer')
  const streaming = status === 'streaming'
  const stopButton = <button type="button" data-chatrail-stop="" onClick={stop}>Stop</button>

  if (pendingDialog !== undefined) {
    return (
      <div data-chatrail-composer="" data-chatrail-composer-collapsed="">
        <p data-chatrail-composer-note="" role="status">
          {pendingDialog.answerable
            ? <button type="button" data-chatrail-goto-dialog="" onClick={() => focusCard(pendingDialog.toolId)}>
              {pendingDialog.kind === 'plan' ? 'Waiting for your review above ↑' : 'Waiting for your answer above ↑'}
            </button>
            : 'Waiting for an answer in the agent’s own window'}
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
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }
  const replayable = canReplayLastTurn(messages, streaming)
  return (
    <form data-chatrail-composer="" onSubmit={(event) => { event.preventDefault(); submit() }}>
      <textarea
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
