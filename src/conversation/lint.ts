import { TRANSITION_TOOL } from './agent-transitions.js'
import { configIssue, type ConfigIssue } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput } from './definition.js'
import type { JsonObject } from './json.js'
import { commandKey, textKey } from './normalize.js'
import type { Route } from './routes.js'

/** A definition that runs but probably does not do what its author meant. Same shape as a config issue. */
export type LintWarning = ConfigIssue

function targets(transition: string | { target: string }): string {
  return typeof transition === 'string' ? transition : transition.target
}

/**
 * Lints a valid definition. Pure; warnings in a stable order (states, then routes by position):
 * dead routes (event declared nowhere), routes restricted to states that do not declare their
 * event, states unreachable from `initial`, non-final states with no way out, final states with
 * transitions, exact routes shadowed by an earlier unguarded route in overlapping states, and a
 * `chatrail_transition` tool clashing with agent transitions.
 */
export function lintDefinition<Ctx extends JsonObject>(definition: ChatDefinition<Ctx> | ChatDefinitionInput<Ctx>): LintWarning[] {
  const warnings: LintWarning[] = []
  const { states, initial, routes } = definition.conversation
  const names = Object.keys(states)
  const declaring = new Map<string, Set<string>>()
  for (const [name, state] of Object.entries(states)) {
    for (const event of Object.keys(state.on ?? {})) {
      let set = declaring.get(event)
      if (!set) declaring.set(event, (set = new Set()))
      set.add(name)
    }
  }

  const reachable = new Set<string>([initial])
  const queue = [initial]
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const transition of Object.values(states[name]?.on ?? {})) {
      const target = targets(transition)
      if (!reachable.has(target)) {
        reachable.add(target)
        queue.push(target)
      }
    }
  }
  for (const [name, state] of Object.entries(states)) {
    const path = ['conversation', 'states', name]
    if (!reachable.has(name)) {
      warnings.push(configIssue('unreachable_state', path, `State "${name}" cannot be reached from "${initial}".`, 'Add a transition into it, or remove it.'))
    }
    const exits = Object.keys(state.on ?? {}).length
    if (!state.final && exits === 0) {
      warnings.push(configIssue('dead_end_state', path, `State "${name}" is not final and has no transitions: the conversation gets stuck there.`, 'Add an `on` transition out of it, or mark it `final: true`.'))
    }
    if (state.final && exits > 0) {
      warnings.push(configIssue('final_with_transitions', [...path, 'on'], `State "${name}" is final but declares transitions.`, 'Drop `final: true` or its `on` map.'))
    }
  }

  const effective = (route: Route<Ctx>): Set<string> => {
    const declared = declaring.get(route.event) ?? new Set<string>()
    return new Set((route.states ?? names).filter((s) => declared.has(s)))
  }
  const keyed: { route: Route<Ctx>; keys: string[]; states: Set<string> }[] = []
  routes.forEach((route, position) => {
    const path = ['conversation', 'routes', position]
    const declared = declaring.get(route.event)
    if (!declared) {
      warnings.push(configIssue('dead_route', [...path, 'event'], `Route "${route.id}" fires event "${route.event}", which no state declares: it can never fire.`, `Declare "${route.event}" in a state's \`on\`, or change the route's event.`))
      return
    }
    route.states?.forEach((state, i) => {
      if (!declared.has(state)) {
        warnings.push(configIssue('route_state_without_event', [...path, 'states', i], `Route "${route.id}" lists state "${state}", which does not declare its event "${route.event}".`, `Add on: { ${route.event}: … } to "${state}", or drop it from the route's states.`))
      }
    })
    if (route.kind !== 'command' && route.kind !== 'text') return
    const keys = route.kind === 'command' ? [route.command] : route.texts.map(textKey)
    const mine = effective(route)
    for (const earlier of keyed) {
      if (earlier.route.guard || earlier.route.kind !== route.kind) continue
      const hits = keys.some((key) => {
        if (route.kind === 'text') return earlier.keys.includes(key)
        const matching = earlier.route as Route<Ctx> & { caseSensitive: boolean; trim: boolean }
        return earlier.keys.includes(commandKey(key, matching))
      })
      const overlap = [...mine].filter((s) => earlier.states.has(s))
      if (hits && overlap.length > 0) {
        warnings.push(configIssue('shadowed_route', path, `Route "${route.id}" is shadowed by the earlier route "${earlier.route.id}" in state${overlap.length > 1 ? 's' : ''} ${overlap.map((s) => `"${s}"`).join(', ')}.`, `Move "${route.id}" before "${earlier.route.id}", restrict their states, or give the earlier one a guard.`))
        break
      }
    }
    keyed.push({ route, keys: route.kind === 'command' ? [commandKey(route.command, route)] : keys, states: mine })
  })

  if (definition.conversation.agentTransitions && definition.chat.tools?.some((tool) => tool.name === TRANSITION_TOOL)) {
    warnings.push(configIssue('transition_tool_clash', ['chat', 'tools'], `chat.tools declares "${TRANSITION_TOOL}", the name agent transitions reserve.`, 'Rename your tool.'))
  }
  return warnings
}
