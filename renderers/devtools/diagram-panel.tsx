import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from 'react'
import type { DevtoolsDefinition, DevtoolsTurn } from '../../src/devtools/devtools-api.js'
import { diagramGraphOf, SHARED_LABELS, takenPathOf } from './diagram-graph.js'

/**
 * The state diagram section: the diagram itself is a lazy chunk (state-diagram.tsx with dagre),
 * loaded when the section first renders, so neither the list view nor chatrail/react ever pays for
 * the layout library. Clicking (or Enter / Space on) a state lists what it allows: its events and
 * where they lead, the routes that can fire there, its form's slots.
 */

const StateDiagram = lazy(async () => ({ default: (await import('./state-diagram.js')).StateDiagram }))

/**
 * `@dagrejs/dagre` is an optional peer dependency (an app that never shows a diagram does not
 * install it): when the chunk cannot load, the panel says what to install instead of taking the
 * whole devtools down with it.
 */
class DiagramUnavailable extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children
    return <p role="status" data-devtools-diagram-unavailable="">The diagram could not be drawn: its layout library did not load. Install it with <code>npm install @dagrejs/dagre</code>; the rest of the devtools works without it.</p>
  }
}

function StateDetails({ definition, name }: { definition: DevtoolsDefinition; name: string }): ReactNode {
  const state = definition.states.find((candidate) => candidate.name === name)
  if (state === undefined) return null
  const transitions = definition.transitions.filter((transition) => transition.from === name)
  const routes = definition.routes.filter((route) => state.routes.includes(route.id))
  return (
    <section data-devtools-state-details={name} aria-labelledby="devtools-state-details" aria-live="polite">
      <h4 id="devtools-state-details">State <code>{name}</code>{state.initial ? ' (initial)' : ''}{state.final ? ' (final)' : ''}</h4>
      {state.description !== undefined && <p>{state.description}</p>}
      <h5>Events</h5>
      {transitions.length === 0 ? <p>None: {state.final ? 'a final state' : 'nothing moves on from here'}.</p> : (
        <ul data-devtools-state-events="">
          {transitions.map((transition) => (
            <li key={`${transition.event}-${transition.to}`}><code>{transition.event}</code> → <code>{transition.to}</code>{transition.guarded ? ' (guarded)' : ''}{transition.inherited ? ' (conversation-level)' : ''}</li>
          ))}
        </ul>
      )}
      <h5>Routes</h5>
      {routes.length === 0 ? <p>None: the agent (or the form) answers here.</p> : (
        <ul data-devtools-state-routes="">
          {routes.map((route) => (
            <li key={route.id}><code>{route.id}</code> ({route.kind}): {route.matches}{route.event === undefined ? ', reply only' : `, fires ${route.event}`}{route.restart ? ', restarts' : ''}</li>
          ))}
        </ul>
      )}
      {state.formSlots !== undefined && state.formSlots.length > 0 && (<><h5>Form slots</h5><p>{state.formSlots.join(', ')}</p></>)}
    </section>
  )
}

export function DiagramPanel({ definition, current, turns }: { definition: DevtoolsDefinition; current?: string; turns: readonly DevtoolsTurn[] }): ReactNode {
  const graph = useMemo(() => diagramGraphOf(definition), [definition])
  const taken = useMemo(() => takenPathOf(turns), [turns])
  const [selected, setSelected] = useState<string | undefined>()
  return (
    <section data-devtools-diagram-panel="" aria-labelledby="devtools-diagram-heading">
      <h3 id="devtools-diagram-heading">State diagram</h3>
      <p data-devtools-legend="">
        <span data-devtools-legend-current="">current state</span> <span data-devtools-legend-taken="">path taken</span>. Select a state to see what it allows.
      </p>
      <div data-devtools-diagram-box="">
        <DiagramUnavailable>
        <Suspense fallback={<p aria-busy="true">Drawing the diagram…</p>}>
          <StateDiagram
            graph={graph}
            sharedLabels={SHARED_LABELS}
            taken={taken}
            label={`States of ${definition.id}, revision ${definition.revision}`}
            onSelect={setSelected}
            {...(current === undefined ? {} : { current })}
            {...(selected === undefined ? {} : { selected })}
          />
        </Suspense>
        </DiagramUnavailable>
      </div>
      {selected !== undefined && <StateDetails definition={definition} name={selected} />}
    </section>
  )
}
