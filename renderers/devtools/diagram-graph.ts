import type { DevtoolsDefinition, DevtoolsTurn } from '../../src/devtools/devtools-api.js'
import type { DiagramEdge, DiagramGraph } from './diagram-layout.js'

/**
 * What the diagram draws, from the API's definition: one edge per own transition, labelled with its
 * event, the routes that fire it there and `[guarded]`; a conversation-level transition once, from
 * a shared "any state" node (the API lists it per state that inherits it); restart routes from a
 * shared "restart" node to the initial state. Pure. The taken path comes from the turns.
 */

export const ANY_NODE = '\u0000any'
export const RESTART_NODE = '\u0000restart'
export const SHARED_LABELS: Readonly<Record<string, string>> = { [ANY_NODE]: 'any state', [RESTART_NODE]: 'restart' }

export function diagramGraphOf(definition: DevtoolsDefinition): DiagramGraph {
  const edges: DiagramEdge[] = []
  const routesFor = (event: string, state: string | undefined): string[] =>
    definition.routes.filter((route) => route.event === event && (state === undefined || route.states === undefined || route.states.includes(state))).map((route) => route.id)
  const label = (event: string, ids: readonly string[], guarded: boolean): string => `${event}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}${guarded ? ' [guarded]' : ''}`
  const inherited = new Map<string, { event: string; to: string; guarded: boolean }>()
  for (const transition of definition.transitions) {
    if (transition.inherited) inherited.set(`${transition.event}\u0000${transition.to}`, transition)
    else edges.push({ from: transition.from, to: transition.to, label: label(transition.event, routesFor(transition.event, transition.from), transition.guarded) })
  }
  for (const transition of inherited.values()) edges.push({ from: ANY_NODE, to: transition.to, label: label(transition.event, routesFor(transition.event, undefined), transition.guarded) })
  const restarts = definition.routes.filter((route) => route.restart).map((route) => route.id)
  if (restarts.length > 0) edges.push({ from: RESTART_NODE, to: definition.initial, label: `restart (${restarts.join(', ')})` })
  return { initial: definition.initial, states: definition.states.map((state) => ({ name: state.name, final: state.final })), edges }
}

/** The transitions the turns took (a turn that stayed put takes none), oldest first. */
export function takenPathOf(turns: readonly DevtoolsTurn[]): { from: string; to: string }[] {
  return turns.filter((turn) => turn.fromState !== turn.toState).map((turn) => ({ from: turn.fromState, to: turn.toState }))
}
