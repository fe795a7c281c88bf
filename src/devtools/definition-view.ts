import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import type { Machine } from '../conversation/machine.js'
import { toMermaid } from '../conversation/mermaid.js'
import type { Route } from '../conversation/routes.js'
import type { DevtoolsDefinition, DevtoolsRouteInfo, DevtoolsStateInfo, DevtoolsTransition } from './devtools-api.js'

/**
 * A definition as the devtools page draws it: its states with the events and routes each takes,
 * its transitions (own and inherited), its routes in declaration order, and its Mermaid diagram.
 * Pure: read from the compiled machine (so inherited transitions and opt-outs are the machine's)
 * and the route table.
 */

function matchesOf(route: Route<JsonObject>): string {
  switch (route.kind) {
    case 'command':
      return route.command
    case 'text':
      return route.texts.map((text) => JSON.stringify(text)).join(' | ')
    case 'pattern':
      return String(route.pattern)
    case 'event':
      return `UI event "${route.uiEvent}"`
    case 'custom':
      return 'a match function'
  }
}

function routeInfo(route: Route<JsonObject>): DevtoolsRouteInfo {
  return {
    id: route.id,
    kind: route.kind,
    ...(route.event === undefined ? {} : { event: route.event }),
    ...(route.states === undefined ? {} : { states: [...route.states] }),
    restart: route.restart === true,
    ...(route.description === undefined ? {} : { description: route.description }),
    matches: matchesOf(route),
  }
}

/** Whether `route` can fire in `state`: its `states` allow it and its event (if any) is declared there. */
export function routeFiresIn(route: Route<JsonObject>, state: string, machine: Machine<JsonObject>): boolean {
  if (route.states && !route.states.includes(state)) return false
  return route.event === undefined || machine.states.get(state)?.transitions.has(route.event) === true
}

export function definitionView<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, machine: Machine<Ctx>): DevtoolsDefinition {
  const conversation = definition.conversation
  const routes = conversation.routes as readonly Route<JsonObject>[]
  const plain = machine as unknown as Machine<JsonObject>
  const own = (name: string): Record<string, unknown> => (conversation.states as Record<string, { on?: Record<string, unknown> }>)[name]?.on ?? {}
  const states: DevtoolsStateInfo[] = []
  const transitions: DevtoolsTransition[] = []
  for (const [name, compiled] of machine.states) {
    const declared = (conversation.states as Record<string, { description?: string }>)[name]
    const slots = compiled.form ? Object.keys(compiled.form.slots) : undefined
    states.push({
      name,
      initial: name === conversation.initial,
      final: compiled.final,
      ...(declared?.description === undefined ? {} : { description: declared.description }),
      events: [...compiled.transitions.keys()],
      routes: routes.filter((route) => routeFiresIn(route, name, plain)).map((route) => route.id),
      actions: [...compiled.actions],
      ...(slots === undefined ? {} : { formSlots: slots }),
    })
    const mine = own(name)
    for (const [event, transition] of compiled.transitions) {
      transitions.push({ from: name, event, to: transition.target, guarded: transition.guard !== undefined, inherited: !Object.hasOwn(mine, event) })
    }
  }
  return {
    id: definition.id,
    revision: definition.revision,
    initial: conversation.initial,
    states,
    transitions,
    routes: routes.map(routeInfo),
    mermaid: toMermaid(definition),
  }
}
