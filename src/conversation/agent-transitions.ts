import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamToolCallPayload } from '../contract/stream.js'
import type { ToolDefinition } from '../contract/tool.js'
import { isIdentifier } from './identifier.js'
import type { JsonObject } from './json.js'
import { step, type Machine, type MachineState } from './machine.js'

/**
 * Agent-proposed transitions (`conversation.agentTransitions`). The forwarded request names the
 * legal events (in `context.metadata.chatrail` and as a `chatrail_transition` tool); the agent may
 * propose one with a tool call. The machine, not the agent, decides: a proposal is legal only if
 * the current state declares the event and its guard passes. Pure.
 */

export const TRANSITION_TOOL = 'chatrail_transition'

/** Events the current state declares whose guards pass, in declaration order. */
export function legalEvents<Ctx extends JsonObject>(machine: Machine<Ctx>, current: MachineState<Ctx>): string[] {
  const state = machine.states.get(current.state)
  if (!state) return []
  return state.events.filter((event) => step(machine, current, event)[1][0]?.type === 'transition')
}

/** A new request carrying the legal events; the original is never mutated. */
export function withTransitionContext(request: AdapterRequest, state: string, events: readonly string[]): AdapterRequest {
  const tool: ToolDefinition = {
    name: TRANSITION_TOOL,
    description: `Move the conversation (now in state "${state}") by one of the allowed events.`,
    schema: { type: 'object', properties: { event: { type: 'string', enum: [...events] } }, required: ['event'], additionalProperties: false },
  }
  return {
    ...request,
    context: {
      ...request.context,
      tools: [...(request.context?.tools ?? []), tool],
      metadata: { ...request.context?.metadata, chatrail: { state, events: [...events], tool: TRANSITION_TOOL } },
    },
  }
}

export type ProposalVerdict<Ctx extends JsonObject> =
  | { readonly legal: true; readonly event: string; readonly after: MachineState<Ctx> }
  | { readonly legal: false; readonly reason: 'malformed-proposal' | 'undeclared-event' | 'guard-refused' }

/** Judges one proposal against the machine. Reasons are fixed phrases: proposals are model text. */
export function judgeProposal<Ctx extends JsonObject>(machine: Machine<Ctx>, current: MachineState<Ctx>, call: StreamToolCallPayload): ProposalVerdict<Ctx> {
  let event: unknown
  try {
    event = (JSON.parse(call.args) as { event?: unknown } | null)?.event
  } catch {
    return { legal: false, reason: 'malformed-proposal' }
  }
  if (!isIdentifier(event)) return { legal: false, reason: 'malformed-proposal' }
  const [after, effects] = step(machine, current, event)
  const first = effects[0]
  if (first?.type === 'refuse') return { legal: false, reason: first.reason === 'undeclared-event' ? 'undeclared-event' : 'guard-refused' }
  return { legal: true, event, after }
}
