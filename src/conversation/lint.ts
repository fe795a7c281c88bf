import { TRANSITION_TOOL } from './transition-tool.js'
import { ChatrailConfigError, configIssue, type ConfigIssue } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput } from './definition.js'
import { didYouMean } from './did-you-mean.js'
import type { JsonObject } from './json.js'
import { compileMachine } from './machine.js'
import { plainConversation } from './plain-conversation.js'
import { COMMAND_SPACES, commandKey, commandSpace, textKey } from './normalize.js'
import type { Route } from './routes.js'
import { resolveChatTheme } from './resolve-theme.js'
import { themeContrastIssues } from './theme-contrast.js'

/** A definition that runs but probably does not do what its author meant. Same shape as a config issue. */
export type LintWarning = ConfigIssue

/** An earlier unguarded route that can shadow later ones, with the states it fires in. */
interface Shadow {
  readonly id: string
  readonly position: number
  readonly states: ReadonlySet<string>
}

const list = (states: readonly string[]): string => `state${states.length > 1 ? 's' : ''} ${states.map((s) => `"${s}"`).join(', ')}`

/**
 * Lints a valid definition. Pure; warnings in a stable order (states, then routes by position):
 * dead routes (event declared nowhere), routes restricted to states that do not declare their
 * event, states unreachable from `initial`, non-final states with no way out, final states with
 * transitions, command and text routes shadowed by an earlier unguarded route (the same command or
 * text, or a pattern that matches it) in overlapping states, and a `chatrail_transition` tool
 * clashing with agent transitions. Reply-only routes (no `event`) fire wherever their `states`
 * allow, final states included, and are never dead.
 *
 * Linear in the routes (issue 20): exact routes are indexed by key, so a route is compared only
 * with the earlier routes that share its command or text, and with each distinct earlier
 * unguarded pattern (a definition has few). The states a route fires in are one shared set per
 * event when the route does not narrow them.
 */
export function lintDefinition<Ctx extends JsonObject>(definition: ChatDefinition<Ctx> | ChatDefinitionInput<Ctx>): LintWarning[] {
  const warnings: LintWarning[] = []
  const conversation = definition.conversation ?? plainConversation<Ctx>()
  const { initial, routes } = conversation
  // The compiled machine is what decides: own and inherited conversation-level transitions alike.
  const { states } = compileMachine({ ...conversation, context: conversation.context ?? {} })
  const names = [...states.keys()]
  const declaring = new Map<string, Set<string>>()
  for (const [name, state] of states) {
    for (const event of state.transitions.keys()) {
      let set = declaring.get(event)
      if (!set) declaring.set(event, (set = new Set()))
      set.add(name)
    }
  }

  const reachable = new Set<string>([initial])
  const queue = [initial]
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const { target } of states.get(name)?.transitions.values() ?? []) {
      if (!reachable.has(target)) {
        reachable.add(target)
        queue.push(target)
      }
    }
  }
  for (const [name, state] of states) {
    const path = ['conversation', 'states', name]
    if (!reachable.has(name)) {
      warnings.push(configIssue('unreachable_state', path, `State "${name}" cannot be reached from "${initial}".`, 'Add a transition into it, or remove it.'))
    }
    const exits = state.transitions.size
    // A machine of one state and no routes is a plain agentic chat (no `conversation`, or one
    // written out the same): staying there is the point, not a dead end.
    const plainChat = names.length === 1 && routes.length === 0
    if (!state.final && exits === 0 && !plainChat) {
      warnings.push(configIssue('dead_end_state', path, `State "${name}" is not final and has no transitions: the conversation gets stuck there.`, 'Add an `on` transition out of it, or mark it `final: true`.'))
    }
    if (state.final && Object.keys(conversation.states[name]?.on ?? {}).length > 0) {
      warnings.push(configIssue('final_with_transitions', [...path, 'on'], `State "${name}" is final but declares transitions.`, 'Drop `final: true` or its `on` map, or answer there with a reply-only route (no `event`).'))
    }
  }

  // Where a route can fire; shared per event for the common route without `states`.
  const everywhere = new Set(names)
  const effective = (route: Route<Ctx>): ReadonlySet<string> => {
    const declared = route.event === undefined ? everywhere : (declaring.get(route.event) ?? new Set<string>())
    return route.states ? new Set(route.states.filter((s) => declared.has(s))) : declared
  }
  const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): string[] => {
    const [small, large] = a.size <= b.size ? [a, b] : [b, a]
    return [...small].filter((s) => large.has(s))
  }
  // Earlier unguarded exact routes by key (one map per command key space, one for texts), and
  // earlier unguarded patterns by source and flags (two equal patterns shadow the same routes).
  const commands = COMMAND_SPACES.map(() => new Map<string, Shadow[]>())
  const texts = new Map<string, Shadow[]>()
  const patterns = new Map<string, { pattern: RegExp; shadows: Shadow[] }>()
  const remember = (map: Map<string, Shadow[]>, key: string, shadow: Shadow): void => {
    const known = map.get(key)
    if (known) known.push(shadow)
    else map.set(key, [shadow])
  }

  routes.forEach((route, position) => {
    const path = ['conversation', 'routes', position]
    const event = route.event
    const declared = event === undefined ? everywhere : declaring.get(event)
    if (!declared) {
      warnings.push(configIssue('dead_route', [...path, 'event'], `Route "${route.id}" fires event "${event}", which no state declares: it can never fire.`, `Declare "${event}" in a state's \`on\` (or the conversation's), or change the route's event.${didYouMean(event as string, declaring.keys())}`))
      return
    }
    route.states?.forEach((state, i) => {
      if (!declared.has(state)) {
        warnings.push(configIssue('route_state_without_event', [...path, 'states', i], `Route "${route.id}" lists state "${state}", which does not declare its event "${event}".`, `Add on: { ${event}: … } to "${state}", or drop it from the route's states.`))
      }
    })
    const mine = effective(route)
    if (route.kind === 'command' || route.kind === 'text') {
      const hit = shadowOf(route, mine)
      if (hit) {
        warnings.push(configIssue('shadowed_route', path, `Route "${route.id}" is shadowed by the earlier route "${hit.shadow.id}" in ${list(hit.states)}${hit.by}.`, `Move "${route.id}" before "${hit.shadow.id}", restrict their states, or give the earlier one a guard.`))
      }
    }
    if (route.guard) return
    const shadow: Shadow = { id: route.id, position, states: mine }
    if (route.kind === 'command') remember(commands[commandSpace(route)] as Map<string, Shadow[]>, commandKey(route.command, route), shadow)
    else if (route.kind === 'text') for (const text of new Set(route.texts.map(textKey))) remember(texts, text, shadow)
    else if (route.kind === 'pattern') {
      const key = `${route.pattern.flags}/${route.pattern.source}`
      const known = patterns.get(key)
      if (known) known.shadows.push(shadow)
      else patterns.set(key, { pattern: route.pattern, shadows: [shadow] })
    }
  })

  /** The earliest earlier route that takes one of `route`'s inputs in a state `route` fires in. */
  function shadowOf(route: Route<Ctx> & { kind: 'command' | 'text' }, mine: ReadonlySet<string>): { shadow: Shadow; states: string[]; by: string } | undefined {
    let best: { shadow: Shadow; states: string[]; by: string } | undefined
    const consider = (shadows: readonly Shadow[] | undefined, by: string): void => {
      // Each list is in declaration order: its first overlapping route is its earliest.
      for (const shadow of shadows ?? []) {
        if (best && best.shadow.position <= shadow.position) return
        const states = overlap(mine, shadow.states)
        if (states.length > 0) {
          best = { shadow, states, by }
          return
        }
      }
    }
    if (route.kind === 'command') {
      COMMAND_SPACES.forEach((matching, space) => {
        const map = commands[space] as Map<string, Shadow[]>
        if (map.size > 0) consider(map.get(commandKey(route.command, matching)), '')
      })
    } else {
      for (const text of route.texts) consider(texts.get(textKey(text)), '')
    }
    const inputs = route.kind === 'command' ? [route.command] : route.texts
    for (const { pattern, shadows } of patterns.values()) {
      const input = inputs.find((text) => pattern.test(text))
      if (input !== undefined) consider(shadows, `, whose pattern ${String(pattern)} matches ${JSON.stringify(input)}`)
    }
    return best
  }

  if (conversation.agentTransitions && definition.chat.tools?.some((tool) => tool.name === TRANSITION_TOOL)) {
    warnings.push(configIssue('transition_tool_clash', ['chat', 'tools'], `chat.tools declares "${TRANSITION_TOOL}", the name agent transitions reserve.`, 'Rename your tool.'))
  }
  if (definition.theme !== undefined) warnings.push(...themeWarnings(definition.theme))
  return warnings
}

/** A theme's unknown tokens and bad values, or else where its text falls short of WCAG AA, as warnings. */
function themeWarnings(theme: unknown): ConfigIssue[] {
  try {
    return themeContrastIssues(resolveChatTheme(theme))
  } catch (error) {
    if (ChatrailConfigError.isInstance(error)) return [...error.issues]
    throw error
  }
}
