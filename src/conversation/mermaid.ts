import type { ChatDefinition, ChatDefinitionInput, TransitionDefinition } from './definition.js'
import type { JsonObject } from './json.js'
import { plainConversation } from './plain-conversation.js'

/**
 * A definition's state diagram (issue 19 item 5), as Mermaid (`stateDiagram-v2`, renders on GitHub
 * and in most docs tools) or Graphviz DOT. States, the initial state, final states (an edge to
 * `[*]`, or a double border), and one edge per state and event, labelled with the event and the
 * routes (or `form`) that fire it; a guarded transition says `[guarded]`. Conversation-level
 * transitions are drawn once, from an "any non-final state" node, naming the states that opt out
 * or override them; `restart` routes are drawn from an "any state" node (or the states they list).
 * Reply-only routes change no state, so they draw nothing. Pure and deterministic (declaration
 * order throughout), so a generated diagram can be checked into the docs and tested for staleness.
 */

/** One edge of the diagram. `from` is a state name, or `ANY` / `EVERY` for the shared nodes. */
interface Edge {
  readonly from: string
  readonly to: string
  readonly label: string
}

export interface StateGraph {
  readonly id: string
  readonly initial: string
  readonly states: readonly { readonly name: string; readonly final: boolean }[]
  readonly edges: readonly Edge[]
}

/** The node conversation-level transitions leave from. */
const ANY = '\u0000any'
/** The node `restart` routes without `states` leave from (they fire in final states too). */
const EVERY = '\u0000every'

type Transition = string | TransitionDefinition<never>

/** The graph both formats draw. Pure. */
export function stateGraph<Ctx extends JsonObject>(definition: ChatDefinition<Ctx> | ChatDefinitionInput<Ctx>): StateGraph {
  const { states, initial, routes, on: global } = definition.conversation ?? plainConversation<Ctx>()
  const names = Object.keys(states)
  const edges: Edge[] = []
  // The label: the event, the routes (or `form`) that fire it in `state` (in any state for a
  // conversation-level edge), whether the transition is guarded, and `extra`.
  const edge = (from: string, event: string, transition: Transition, state?: string, extra = ''): void => {
    const ids = routes.filter((route) => route.event === event && (state === undefined || !route.states || route.states.includes(state))).map((route) => route.id)
    const form = state === undefined ? undefined : states[state]?.form
    if (form?.done === event || form?.exhausted === event) ids.push('form')
    const plain = typeof transition === 'string'
    edges.push({ from, to: plain ? transition : transition.target, label: `${event}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}${!plain && transition.guard !== undefined ? ' [guarded]' : ''}${extra}` })
  }
  for (const [name, state] of Object.entries(states)) {
    for (const [event, transition] of Object.entries(state.on ?? {})) edge(name, event, transition as Transition, name)
  }
  for (const [event, transition] of Object.entries(global ?? {})) {
    // States where this global edge does not apply although they are not final.
    const except = names.filter((name) => {
      const state = states[name]
      if (!state || state.final === true) return false
      return state.ignoreGlobal === true || (Array.isArray(state.ignoreGlobal) && state.ignoreGlobal.includes(event)) || Object.hasOwn(state.on ?? {}, event)
    })
    edge(ANY, event, transition as Transition, undefined, except.length > 0 ? ` — not in ${except.join(', ')}` : '')
  }
  // Restart routes, one edge per state they start over from.
  const restarts = new Map<string, string[]>()
  for (const route of routes) {
    if (route.restart !== true) continue
    for (const from of route.states ?? [EVERY]) restarts.set(from, [...(restarts.get(from) ?? []), route.id])
  }
  for (const [from, ids] of restarts) edges.push({ from, to: initial, label: `restart (${ids.join(', ')})` })
  return {
    id: definition.id,
    initial,
    states: names.map((name) => ({ name, final: states[name]?.final === true })),
    edges,
  }
}

/** Mermaid ids: the state name when it is a plain word, else a safe, unique stand-in. */
function mermaidIds(graph: StateGraph): Map<string, string> {
  const ids = new Map<string, string>([[ANY, 'any_state'], [EVERY, 'every_state']])
  const taken = new Set(ids.values())
  for (const { name } of graph.states) {
    let id = /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && name !== 'state' ? name : `s_${name.replace(/[^A-Za-z0-9_]/g, '_')}`
    while (taken.has(id)) id = `${id}_`
    taken.add(id)
    ids.set(name, id)
  }
  return ids
}

/** The definition as a Mermaid `stateDiagram-v2`. Pure. */
export function toMermaid<Ctx extends JsonObject>(definition: ChatDefinition<Ctx> | ChatDefinitionInput<Ctx>): string {
  const graph = stateGraph(definition)
  const ids = mermaidIds(graph)
  const id = (name: string): string => ids.get(name) ?? name
  const lines = ['stateDiagram-v2']
  for (const { name } of graph.states) if (id(name) !== name) lines.push(`  state "${name}" as ${id(name)}`)
  for (const [node, label] of [[ANY, 'any non-final state'], [EVERY, 'any state']] as const) if (graph.edges.some((edge) => edge.from === node)) lines.push(`  state "${label}" as ${id(node)}`)
  lines.push(`  [*] --> ${id(graph.initial)}`)
  for (const edge of graph.edges) lines.push(`  ${id(edge.from)} --> ${id(edge.to)}: ${edge.label.replace(/[;#]/g, ' ')}`)
  for (const { name, final } of graph.states) if (final) lines.push(`  ${id(name)} --> [*]`)
  return `${lines.join('\n')}\n`
}

const dotString = (text: string): string => `"${text.replace(/["\\]/g, '\\$&')}"`

/** The definition as a Graphviz DOT digraph (`dot -Tsvg`). Pure. */
export function toDot<Ctx extends JsonObject>(definition: ChatDefinition<Ctx> | ChatDefinitionInput<Ctx>): string {
  const graph = stateGraph(definition)
  const node = (name: string): string => dotString(name === ANY ? 'any non-final state' : name === EVERY ? 'any state' : name)
  const lines = [`digraph ${dotString(graph.id)} {`, '  rankdir=LR', '  node [shape=box, style=rounded]', '  "[*]" [shape=point, width=0.2]']
  for (const { name, final } of graph.states) lines.push(`  ${node(name)}${final ? ' [peripheries=2]' : ''}`)
  if (graph.edges.some((edge) => edge.from === ANY)) lines.push(`  ${node(ANY)} [shape=plaintext, style=""]`)
  if (graph.edges.some((edge) => edge.from === EVERY)) lines.push(`  ${node(EVERY)} [shape=plaintext, style=""]`)
  lines.push(`  "[*]" -> ${node(graph.initial)}`)
  for (const edge of graph.edges) lines.push(`  ${node(edge.from)} -> ${node(edge.to)} [label=${dotString(edge.label)}${edge.from === ANY || edge.from === EVERY ? ', style=dashed' : ''}]`)
  lines.push('}')
  return `${lines.join('\n')}\n`
}
