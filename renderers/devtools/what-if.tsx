import { useId, useState, type FormEvent, type ReactNode } from 'react'
import type { DevtoolsDefinition, WhatIfResponse } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'
import { ExplanationView } from './explanation-view.js'

/**
 * What-if: a message (or a button's UI event) and a state → which route would answer and why, as
 * the API's explain computes it on the definition alone. Nothing stored is read or written.
 */

type Result = { status: 'idle' | 'loading' } | { status: 'ready'; value: WhatIfResponse } | { status: 'failed'; error: string }

export function WhatIf({ client, definition, initialState }: { client: DevtoolsClient; definition: DevtoolsDefinition; initialState?: string }): ReactNode {
  const id = useId()
  const [state, setState] = useState(initialState ?? definition.initial)
  const [text, setText] = useState('')
  const [asEvent, setAsEvent] = useState(false)
  const [result, setResult] = useState<Result>({ status: 'idle' })
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault()
    setResult({ status: 'loading' })
    client.whatIf({ definition: definition.id, state, ...(asEvent ? { uiEvent: text } : { text }) }).then(
      (value) => setResult({ status: 'ready', value }),
      (error: unknown) => setResult({ status: 'failed', error: error instanceof Error ? error.message : String(error) }),
    )
  }
  return (
    <section data-devtools-what-if="" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>What if…</h3>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-text`}>{asEvent ? 'UI event' : 'Message'}</label>
        <input id={`${id}-text`} value={text} onChange={(event) => setText(event.target.value)} placeholder={asEvent ? 'e.g. express' : 'Type a message'} autoComplete="off" />
        <label htmlFor={`${id}-state`}>In state</label>
        <select id={`${id}-state`} value={state} onChange={(event) => setState(event.target.value)}>
          {definition.states.map((candidate) => <option key={candidate.name} value={candidate.name}>{candidate.name}</option>)}
        </select>
        <label data-devtools-inline=""><input type="checkbox" checked={asEvent} onChange={(event) => setAsEvent(event.target.checked)} /> a button's UI event</label>
        <button type="submit" disabled={result.status === 'loading'}>Explain</button>
      </form>
      <div aria-live="polite">
        {result.status === 'loading' && <p aria-busy="true">Explaining…</p>}
        {result.status === 'failed' && <p role="alert">{result.error}</p>}
        {result.status === 'ready' && <ExplanationView explanation={result.value} caption={`Routes in ${result.value.state}`} />}
      </div>
    </section>
  )
}
