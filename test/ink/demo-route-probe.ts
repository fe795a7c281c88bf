import type { ChatDefinition, JsonObject, Route } from '../../src/index.js'

/**
 * The demo tests derive what to type from the support-bot definition itself (its first
 * unguarded command route with a constant reply that the initial state can take), so they keep
 * testing the real workflow when its wording changes.
 */

export interface DeterministicStep {
  command: string
  reply: string
  routeId: string
  fromState: string
  toState: string
}

function targetOf(definition: ChatDefinition<JsonObject>, state: string, event: string): string | undefined {
  const transition = definition.conversation.states[state]?.on?.[event]
  if (transition === undefined) return undefined
  return typeof transition === 'string' ? transition : transition.guard === undefined ? transition.target : undefined
}

export function firstCommandStep<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>): DeterministicStep {
  const plain = definition as unknown as ChatDefinition<JsonObject>
  const state = plain.conversation.initial
  for (const route of plain.conversation.routes as readonly Route<JsonObject>[]) {
    if (route.kind !== 'command' || route.event === undefined || route.guard !== undefined || typeof route.response !== 'string') continue
    if (route.states !== undefined && !route.states.includes(state)) continue
    const toState = targetOf(plain, state, route.event)
    if (toState === undefined) continue
    return { command: route.command, reply: route.response, routeId: route.id, fromState: state, toState }
  }
  throw new Error(`the demo definition "${plain.id}" has no unguarded command route with a constant reply from "${state}"`)
}
