import type { ConversationDefinition, FormDefinition, TransitionDefinition, TransitionGuardContext } from './definition.js'
import { deepFreeze, findNonJson, type JsonObject } from './json.js'

/**
 * The conversation machine: a compiled, immutable table of states, and a pure step function
 * `(machine, current, event, assign) → [next, effects]` (XState `transition.ts` style). The session
 * is the actor that applies the result; nothing here holds progress.
 */

export interface MachineState<Ctx extends JsonObject = JsonObject> {
  readonly state: string
  readonly context: Readonly<Ctx>
}

interface CompiledTransition<Ctx extends JsonObject> {
  readonly target: string
  readonly guard: ((ctx: TransitionGuardContext<Ctx>) => boolean) | undefined
}

export interface CompiledState<Ctx extends JsonObject = JsonObject> {
  readonly name: string
  /** Declared events, in declaration order; frozen and shared by every snapshot of this state. */
  readonly events: readonly string[]
  readonly actions: readonly string[]
  readonly final: boolean
  /** Own transitions and the inherited conversation-level ones (own first). */
  readonly transitions: ReadonlyMap<string, CompiledTransition<Ctx>>
  readonly form: FormDefinition<Ctx> | undefined
}

/** The context key holding a form's invalid-answer count (cleared whenever the state changes). */
export const FORM_ATTEMPTS = 'formAttempts'

export interface Machine<Ctx extends JsonObject = JsonObject> {
  readonly initial: MachineState<Ctx>
  readonly states: ReadonlyMap<string, CompiledState<Ctx>>
}

export type RefusalReason = 'undeclared-event' | 'guard-refused' | 'guard-threw' | 'assign-not-json'

export type MachineEffect =
  | { readonly type: 'transition'; readonly event: string; readonly from: string; readonly to: string }
  | { readonly type: 'assign'; readonly keys: readonly string[] }
  | { readonly type: 'enter'; readonly state: string; readonly actions: readonly string[]; readonly final: boolean }
  | { readonly type: 'refuse'; readonly event: string; readonly reason: RefusalReason; readonly error?: unknown }

/** Compiles a validated conversation into the lookup tables the step uses. */
export function compileMachine<Ctx extends JsonObject>(conversation: Readonly<ConversationDefinition<Ctx>> & { readonly context: Readonly<Ctx> }): Machine<Ctx> {
  const states = new Map<string, CompiledState<Ctx>>()
  const add = (transitions: Map<string, CompiledTransition<Ctx>>, event: string, transition: string | TransitionDefinition<Ctx> | undefined): void => {
    if (transition !== undefined && !transitions.has(event)) transitions.set(event, typeof transition === 'string' ? { target: transition, guard: undefined } : { target: transition.target, guard: transition.guard })
  }
  for (const [name, state] of Object.entries(conversation.states)) {
    const transitions = new Map<string, CompiledTransition<Ctx>>()
    for (const [event, transition] of Object.entries(state.on ?? {})) add(transitions, event, transition)
    // Conversation-level transitions: every non-final state, unless it opts out (its own `on` wins).
    const ignore = state.ignoreGlobal
    if (state.final !== true && ignore !== true) {
      for (const [event, transition] of Object.entries(conversation.on ?? {})) if (!ignore?.includes(event)) add(transitions, event, transition)
    }
    states.set(name, {
      name,
      events: Object.freeze([...transitions.keys()]),
      actions: Object.freeze([...(state.actions ?? [])]),
      final: state.final === true,
      transitions,
      form: state.form,
    })
  }
  return { initial: Object.freeze({ state: conversation.initial, context: conversation.context }), states }
}

/** A refusal, as `step` reports it (its only effect). */
export type Refusal = Extract<MachineEffect, { type: 'refuse' }>

/**
 * One transition. Pure apart from calling the transition's guard (which must be pure). The guard
 * sees the context before `assign`; the patch is shallow-merged after it passes. On refusal the
 * returned state is `current` itself and the only effect is `refuse` with the reason.
 */
export function step<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  current: MachineState<Ctx>,
  event: string,
  assign?: Partial<Ctx>,
): readonly [MachineState<Ctx>, readonly MachineEffect[]] {
  const next = advance(machine, current, event, assign)
  if ('type' in next) return [current, [next]]
  const target = machine.states.get(next.state)
  const effects: MachineEffect[] = [{ type: 'transition', event, from: current.state, to: next.state }]
  const keys = assign ? Object.keys(assign) : []
  if (keys.length > 0) effects.push({ type: 'assign', keys })
  if (target) effects.push({ type: 'enter', state: target.name, actions: target.actions, final: target.final })
  return [next, effects]
}

/**
 * `step` without its effects: the next state, or the refusal. What a firing route needs on every
 * deterministic turn (issue 20), without allocating the effect list it never reads.
 */
export function advance<Ctx extends JsonObject>(machine: Machine<Ctx>, current: MachineState<Ctx>, event: string, assign?: Partial<Ctx>): MachineState<Ctx> | Refusal {
  const transition = machine.states.get(current.state)?.transitions.get(event)
  if (!transition) return { type: 'refuse', event, reason: 'undeclared-event' }
  if (transition.guard) {
    let allowed: boolean
    try {
      allowed = transition.guard({ state: current.state, event, context: current.context })
    } catch (error) {
      return { type: 'refuse', event, reason: 'guard-threw', error }
    }
    if (allowed !== true) return { type: 'refuse', event, reason: 'guard-refused' }
  }
  let context = assignContext(current.context, assign)
  if (context === undefined) return { type: 'refuse', event, reason: 'assign-not-json' }
  // A form's attempt count belongs to the state it was counted in.
  if (transition.target !== current.state && context[FORM_ATTEMPTS] !== undefined) context = assignContext(context, { [FORM_ATTEMPTS]: undefined } as unknown as Partial<Ctx>) ?? context
  return transition.target === current.state && context === current.context ? current : Object.freeze({ state: transition.target, context })
}

/**
 * The context after a shallow `patch` (frozen, cloned so later mutation of the patch cannot leak
 * in; a key patched to `undefined` is removed), the same object when the patch is empty, or
 * `undefined` when the patch is not JSON. Pure.
 */
export function assignContext<Ctx extends JsonObject>(context: Readonly<Ctx>, patch: Partial<Ctx> | undefined): Readonly<Ctx> | undefined {
  if (patch === undefined || Object.keys(patch).length === 0) return context
  if (findNonJson(patch) !== undefined) return undefined
  const next: Record<string, unknown> = { ...context }
  // `undefined` clears a slot (the key is removed, exactly as JSON would lose it).
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key]
    else next[key] = value
  }
  return deepFreeze(structuredClone(next) as Ctx)
}
