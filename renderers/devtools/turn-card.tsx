import { Fragment, useState, type ReactNode } from 'react'
import type { DevtoolsTurn, MessageExplanation } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'
import { ExplanationView } from './explanation-view.js'
import { SIGNATURE_LABEL, TURN_KIND_HELP } from './turn-kinds.js'

/**
 * One turn, beside its messages: its kind, the route, the state before → after, the decision
 * record and whether it is signed and verified, timings and adapter calls, and on demand "why not
 * the other routes" (the explanation for its user message, computed by the API when asked).
 */

const ms = (value: number | undefined): string | undefined => (value === undefined ? undefined : `${Math.round(value)} ms`)

function Timings({ turn }: { turn: DevtoolsTurn }): ReactNode {
  const { timings } = turn
  const all: ReadonlyArray<readonly [string, number | undefined]> = [
    ['turn', timings.turnMs], ['route', timings.routeMs], ['adapter first chunk', timings.adapterFirstChunkMs], ['adapter', timings.adapterMs],
    ['store before the write', timings.storeBeforeWriteMs], ['store', timings.storeMs],
  ]
  const rows = all.filter((row): row is readonly [string, number] => row[1] !== undefined)
  if (rows.length === 0) return <dd>not recorded</dd>
  // one unbreakable span per phase: a narrow card wraps between phases, never between a name and its figure
  return <dd data-devtools-timings="">{rows.map(([name, value], i) => <Fragment key={name}>{i > 0 ? ' · ' : ''}<span data-devtools-timing="">{`${name} ${ms(value) ?? ''}`}</span></Fragment>)}</dd>
}

function AdapterCalls({ turn }: { turn: DevtoolsTurn }): ReactNode {
  if (turn.adapterCalls.length === 0) return <dd data-devtools-adapter-calls="0">none</dd>
  return (
    <dd data-devtools-adapter-calls={turn.adapterCalls.length}>
      <ul>
        {turn.adapterCalls.map((call) => call.type === 'model'
          ? <li key={`m-${call.messageId}`}>model call: {call.status}{call.errorCode === undefined ? '' : ` (${call.errorCode})`}</li>
          : <li key={`t-${call.toolCallId}`}>tool <code>{call.name}</code>: {call.status}</li>)}
      </ul>
    </dd>
  )
}

function Explain({ client, conversationId, turn }: { client: DevtoolsClient; conversationId: string; turn: DevtoolsTurn }): ReactNode {
  const [open, setOpen] = useState(false)
  const [state, setState] = useState<{ status: 'idle' | 'loading' } | { status: 'ready'; value: MessageExplanation } | { status: 'failed'; error: string }>({ status: 'idle' })
  const panelId = `devtools-explain-${turn.index}`
  const toggle = (): void => {
    const next = !open
    setOpen(next)
    if (next && (state.status === 'idle' || state.status === 'failed')) {
      setState({ status: 'loading' })
      client.explain(conversationId, turn.userMessageId).then(
        (value) => setState({ status: 'ready', value }),
        (error: unknown) => setState({ status: 'failed', error: error instanceof Error ? error.message : String(error) }),
      )
    }
  }
  return (
    <div data-devtools-explain="">
      <button type="button" aria-expanded={open} aria-controls={panelId} onClick={toggle}>Why not the other routes?</button>
      {open && (
        <div id={panelId}>
          {state.status === 'loading' && <p aria-busy="true">Explaining…</p>}
          {state.status === 'failed' && <p role="alert">{state.error}</p>}
          {state.status === 'ready' && <ExplanationView explanation={state.value} caption={`Routes for turn ${turn.index + 1} in ${state.value.state}`} />}
        </div>
      )}
    </div>
  )
}

export function TurnCard({ turn, client, conversationId }: { turn: DevtoolsTurn; client: DevtoolsClient; conversationId: string }): ReactNode {
  const record = turn.record
  return (
    <article data-devtools-turn={turn.index} data-devtools-kind={turn.kind} aria-labelledby={`devtools-turn-${turn.index}`}>
      <h4 id={`devtools-turn-${turn.index}`}>
        Turn {turn.index + 1} <span data-devtools-kind-badge={turn.kind} title={TURN_KIND_HELP[turn.kind]}>{turn.kind}</span>
      </h4>
      <p data-devtools-kind-help="">{TURN_KIND_HELP[turn.kind]}</p>
      <dl>
        <dt>Route</dt>
        <dd data-devtools-route-id="">{turn.routeId === null ? 'none' : <code>{turn.routeId}</code>}{turn.restart ? ' (restart)' : ''}</dd>
        <dt>State</dt>
        <dd data-devtools-states=""><code>{turn.fromState}</code> → <code>{turn.toState}</code>{turn.event === null ? '' : ` on ${turn.event}`}</dd>
        {turn.replayOf !== undefined && (<><dt>Replays</dt><dd data-devtools-replay-of="">the stored answer <code>{turn.replayOf}</code>{turn.record === null ? '' : ` (a ${turn.record.kind} turn)`}</dd></>)}
        {turn.reason !== undefined && (<><dt>Reason</dt><dd><code>{turn.reason}</code></dd></>)}
        {turn.errorCode !== undefined && (<><dt>Error</dt><dd><code>{turn.errorCode}</code></dd></>)}
        <dt>Decision record</dt>
        <dd data-devtools-signature={turn.signature}>
          {record === null ? 'none stored' : SIGNATURE_LABEL[turn.signature]}
          {turn.recordStale ? ' · written for an earlier text of this message' : ''}
        </dd>
        <dt>Timings</dt>
        <Timings turn={turn} />
        <dt>Adapter calls</dt>
        <AdapterCalls turn={turn} />
      </dl>
      {record !== null && (
        <details data-devtools-record="">
          <summary>Decision record</summary>
          <pre>{JSON.stringify(record, null, 2)}</pre>
        </details>
      )}
      <Explain client={client} conversationId={conversationId} turn={turn} />
    </article>
  )
}
