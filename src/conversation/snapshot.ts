import type { AgentSnapshot } from '../contract/agent-snapshot.js'
import type { ChatNames } from './definition.js'
import type { JsonObject } from './json.js'
import type { Machine, MachineState } from './machine.js'

/**
 * What a renderer shows: the current state, its slots, and what can happen next. Immutable. `N`
 * holds the definition's names, so `getSnapshot().state === 'typo'` does not compile.
 */
export interface SessionSnapshot<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  readonly state: N['state']
  readonly context: Readonly<Ctx>
  /** Events the current state declares (whether or not a route uses them), in declaration order. */
  readonly events: readonly N['event'][]
  readonly actions: readonly string[]
  readonly final: boolean
  /** The UI event that starts over from here (a restart `eventRoute`), when the state offers one: the "Start over" button sends it. */
  readonly restart?: N['uiEvent']
  /** The agent's run state, when the adapter is a live agent adapter (Claude Code, Codex). */
  readonly agent?: AgentSnapshot
}

/**
 * The snapshot for `current`; returns `previous` itself when nothing it shows changed, so the
 * identity changes only on change (what `useSyncExternalStore` relies on). Pure.
 */
export function projectSnapshot<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  current: MachineState<Ctx>,
  agent: AgentSnapshot | undefined,
  previous: SessionSnapshot<Ctx> | undefined,
  restart?: (state: string) => string | undefined,
): SessionSnapshot<Ctx> {
  if (previous && previous.state === current.state && previous.context === current.context && previous.agent === agent) return previous
  const compiled = machine.states.get(current.state)
  const restartEvent = restart?.(current.state)
  const snapshot: SessionSnapshot<Ctx> = {
    state: current.state,
    context: current.context,
    events: compiled?.events ?? [],
    actions: compiled?.actions ?? [],
    final: compiled?.final ?? false,
    ...(restartEvent === undefined ? {} : { restart: restartEvent }),
    ...(agent === undefined ? {} : { agent }),
  }
  return Object.freeze(snapshot)
}
