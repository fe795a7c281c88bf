import { Chat as ChatState, useChat } from '@ai-sdk/react'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import type { Dialog, DialogAnswerInput } from '../../../src/contract/dialog.js'
import type { ChatrailPartData } from '../../../src/protocol/ui-parts.js'
import type { ServePageConfig } from '../../../src/cli/serve/page-config.js'
import { humanizeEvent } from '../../../src/view/event-routes.js'
import { conversationIdOfPage, tokenOfPage } from '../../../renderers/serve-page/page-address.js'

/**
 * A test-only page (test/serve/use-chat-browser.test.ts): `useChat` from `@ai-sdk/react`,
 * unchanged, against the chatrail handler at /api/chat, served like `chatrail serve`'s page (same
 * server, same `/chatrail-serve.json`). It proves `useChat` is a chatrail client as is; the page
 * `chatrail serve` serves is chatrail/react's (renderers/serve-page). chatrail's state arrives as the `data-chatrail` part of each answer: the
 * header shows the state, the state's events are buttons (a user message whose
 * `metadata.chatrail.event` names the event), and a live agent's pending dialog is shown with it.
 * A reload restores the conversation with `GET /api/chat?id=…`, and `resume: true` follows a turn
 * still running (`GET /api/chat/<id>/stream`, test/serve/resume-browser.test.ts), also after a
 * dropped connection (`onFinish` with `isDisconnect`). The `Chat` is made here with the transport
 * itself (docs/server.md § Resuming a stream): `useChat({ transport })` wraps a transport in an
 * object without its `resumeStreamIsReplay`, so a stream resumed after a dropped connection (a
 * replay from its start) would be appended to the partial answer instead of replacing it.
 */

export type ServeMessage = UIMessage<unknown, { chatrail: ChatrailPartData }>

interface Restored {
  messages: ServeMessage[]
  chatrail: ChatrailPartData
  config: ServePageConfig
}

const API = '/api/chat'
const CONFIG = '/chatrail-serve.json'

function authHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` }
}

export function UseChatPage(): ReactNode {
  const [address] = useState(() => ({ id: conversationIdOfPage(), token: tokenOfPage() }))
  const [restored, setRestored] = useState<Restored | undefined>()
  const [failure, setFailure] = useState<string | undefined>()
  useEffect(() => {
    let live = true
    const headers = authHeaders(address.token)
    const read = async <T,>(url: string): Promise<T> => {
      const response = await fetch(url, { headers })
      if (!response.ok) throw new Error(response.status === 401 ? 'This server needs a token: open the address it printed, ending in #token=<secret>.' : `The server answered ${response.status}.`)
      return (await response.json()) as T
    }
    Promise.all([read<Omit<Restored, 'config'>>(`${API}?id=${encodeURIComponent(address.id)}`), read<ServePageConfig>(CONFIG)])
      .then(([conversation, config]) => { if (live) setRestored({ ...conversation, config }) }, (error: unknown) => { if (live) setFailure(error instanceof Error ? error.message : String(error)) })
    return () => { live = false }
  }, [address])
  if (failure !== undefined) return <main data-app=""><p role="alert" data-serve-error="">{failure}</p></main>
  if (restored === undefined) return <main data-app="" aria-busy="true"><p data-serve-loading="">Loading the conversation…</p></main>
  return <Chat id={address.id} token={address.token} restored={restored} />
}

function latestSnapshot(messages: readonly ServeMessage[], initial: ChatrailPartData): ChatrailPartData {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const part = messages[index]?.parts.findLast((candidate) => candidate.type === 'data-chatrail')
    if (part !== undefined && part.type === 'data-chatrail') return part.data
  }
  return initial
}

/**
 * The state's buttons: one per UI event of an eligible event route (its machine event is one the
 * state declares, its `states` allow the state), the rule of chatrail/react's `eventButtonsOf`.
 * A declared event no route fires gets no button: pressing it could only reach the agent.
 */
function eventButtons(config: ServePageConfig, snapshot: ChatrailPartData): string[] {
  const buttons: string[] = []
  for (const route of config.routes) {
    if (route.kind !== 'event') continue
    if (route.event !== undefined && !snapshot.events.includes(route.event)) continue
    if (route.states !== undefined && !route.states.includes(snapshot.state)) continue
    if (!buttons.includes(route.uiEvent)) buttons.push(route.uiEvent)
  }
  return buttons
}

function textOf(message: ServeMessage): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
}

function Chat({ id, token, restored }: { id: string; token: string | undefined; restored: Restored }): ReactNode {
  const chat = useMemo(() => {
    const made: ChatState<ServeMessage> = new ChatState<ServeMessage>({
      id,
      messages: restored.messages,
      transport: new DefaultChatTransport<ServeMessage>({ api: API, headers: authHeaders(token) }),
      // a dropped connection (useChat reports `isDisconnect`) resumes the turn's stream, as a reload does
      onFinish: ({ isDisconnect }) => { if (isDisconnect) void made.resumeStream() },
    })
    return made
  }, [id, token, restored.messages])
  const { messages, sendMessage, regenerate, stop, status, error } = useChat<ServeMessage>({ chat, resume: true })
  const [draft, setDraft] = useState('')
  const snapshot = latestSnapshot(messages, restored.chatrail)
  const busy = status === 'submitted' || status === 'streaming'
  const last = messages.at(-1)
  // Stop and dialog answers go to the server as their own POSTs: the turn runs there (on whichever
  // instance holds the conversation), and closing this tab's stream alone would not stop it.
  const control = async (body: Record<string, unknown>): Promise<void> => {
    await fetch(API, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(token) }, body: JSON.stringify({ id, ...body }) })
  }

  const submit = (event?: FormEvent): void => {
    event?.preventDefault()
    const text = draft.trim()
    if (text === '' || busy) return
    setDraft('')
    void sendMessage({ text })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event)
  }

  return (
    <main data-app="" data-serve-status={status}>
      <header data-app-header="">
        <h1>{restored.config.id}</h1>
        <p>
          State: <output data-chatrail-state={snapshot.state} data-chatrail-turn-kind={snapshot.trace?.kind}>{snapshot.state}</output>
          {snapshot.trace?.replayed === true ? <span data-chatrail-replayed=""> · replayed</span> : null}
        </p>
      </header>
      <ol data-serve-messages="" aria-live="polite">
        {messages.map((message) => (
          <li key={message.id} data-chatrail-message="" data-chatrail-role={message.role} data-message-id={message.id} data-part-types={message.parts.map((part) => part.type).join(' ')}>
            {textOf(message)}
          </li>
        ))}
      </ol>
      {snapshot.agent?.pendingDialog !== undefined ? (
        <DialogCard key={snapshot.agent.pendingDialog.toolId} dialog={snapshot.agent.pendingDialog} answer={(toolId, answer) => control({ action: 'answer-dialog', toolId, answer })} />
      ) : null}
      {error !== undefined ? <p role="alert" data-serve-error="">Something went wrong: {error.message}</p> : null}
      <nav data-serve-events="" aria-label="Events">
        {eventButtons(restored.config, snapshot).map((uiEvent) => (
          <button key={uiEvent} type="button" disabled={busy} data-chatrail-event={uiEvent} onClick={() => void sendMessage({ text: humanizeEvent(uiEvent), metadata: { chatrail: { event: uiEvent } } })}>
            {humanizeEvent(uiEvent)}
          </button>
        ))}
      </nav>
      <form data-serve-composer="" onSubmit={submit}>
        <textarea aria-label="Message" rows={2} value={draft} placeholder="Type a message, or a command such as /start" onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} />
        {busy ? (
          <button type="button" onClick={() => { void control({ action: 'stop' }); void stop() }}>Stop</button>
        ) : (
          <button type="submit" disabled={draft.trim() === ''}>Send</button>
        )}
        <button type="button" disabled={busy || last?.role !== 'assistant'} onClick={() => void regenerate()}>Regenerate</button>
      </form>
    </main>
  )
}

/** A live agent's pending question or plan, answered with one click. */
function DialogCard({ dialog, answer }: { dialog: Dialog; answer: (toolId: string, input: DialogAnswerInput) => Promise<void> }): ReactNode {
  const [sent, setSent] = useState(false)
  const reply = (input: DialogAnswerInput): void => {
    setSent(true)
    void answer(dialog.toolId, input)
  }
  const question = dialog.questions?.[0]?.question ?? dialog.prompt
  return (
    <section data-chatrail-dialog="" data-chatrail-dialog-kind={dialog.kind} aria-label="The agent asks">
      <p>{dialog.prompt}</p>
      {!dialog.answerable ? <p>Answer this where the agent runs.</p> : dialog.kind === 'plan' ? (
        <p>
          <button type="button" disabled={sent} onClick={() => reply({ kind: 'plan', approved: true })}>Approve</button>{' '}
          <button type="button" disabled={sent} onClick={() => reply({ kind: 'plan', approved: false })}>Keep planning</button>
        </p>
      ) : (
        <p>
          {dialog.options.filter((option) => option.isOther !== true).map((option) => (
            <button key={option.label} type="button" disabled={sent} title={option.description} onClick={() => reply({ kind: 'question', answers: [{ question, chosen: [option.label] }] })}>
              {option.label}
            </button>
          ))}
        </p>
      )}
    </section>
  )
}
