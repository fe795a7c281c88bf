import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamToolCallPayload } from '../contract/stream.js'
import type { ToolDefinition } from '../contract/tool.js'
import type { isIdentifier } from './identifier.js'
import type { JsonObject } from './json.js'
import type { advance, Machine, MachineState } from './machine.js'

/**
 * Agent-proposed transitions (`conversation.agentTransitions`). The forwarded request names the
 * legal events (in `context.metadata.chatrail` and as a `chatrail_transition` tool); the agent may
 * propose one with a tool call. The machine, not the agent, decides: a proposal is legal only if
 * the current state declares the event and its guard passes. Pure.
 *
 * A session loads this module on the first turn of a definition with `agentTransitions` (an `import()`
 * in agentic-generator.ts), and hands it the machine's `advance`, `isIdentifier` and the tool's name rather
 * than letting it import them: a lazy module that imports the session's modules splits them into
 * shared chunks, each a gzip stream of its own, which cost the apps without agent transitions more
 * than this module does (issue 32).
 */

/** What the judge uses from the session's modules. */
export interface TransitionDeps {
  readonly advance: typeof advance
  readonly isIdentifier: typeof isIdentifier
  /** `TRANSITION_TOOL` (transition-tool.ts). */
  readonly tool: string
}

export type ProposalVerdict<Ctx extends JsonObject> =
  | { readonly legal: true; readonly event: string; readonly after: MachineState<Ctx> }
  | { readonly legal: false; readonly reason: 'malformed-proposal' | 'undeclared-event' | 'guard-refused' }

export interface AgentTransitions {
  /** Events the current state declares whose guards pass, in declaration order. */
  legalEvents: <Ctx extends JsonObject>(machine: Machine<Ctx>, current: MachineState<Ctx>) => string[]
  /** A new request carrying the legal events; the original is never mutated. */
  withTransitionContext: (request: AdapterRequest, state: string, events: readonly string[]) => AdapterRequest
  /** Judges one proposal against the machine. Reasons are fixed phrases: proposals are model text. */
  judgeProposal: <Ctx extends JsonObject>(machine: Machine<Ctx>, current: MachineState<Ctx>, call: StreamToolCallPayload) => ProposalVerdict<Ctx>
}

export function agentTransitions({ advance, isIdentifier, tool }: TransitionDeps): AgentTransitions {
  return {
    legalEvents(machine, current) {
      const state = machine.states.get(current.state)
      if (!state) return []
      return state.events.filter((event) => !('type' in advance(machine, current, event)))
    },
    withTransitionContext(request, state, events) {
      const definition: ToolDefinition = {
        name: tool,
        description: `Move the conversation (now in state "${state}") by one of the allowed events.`,
        schema: { type: 'object', properties: { event: { type: 'string', enum: [...events] } }, required: ['event'], additionalProperties: false },
      }
      return {
        ...request,
        context: {
          ...request.context,
          tools: [...(request.context?.tools ?? []), definition],
          metadata: { ...request.context?.metadata, chatrail: { state, events: [...events], tool } },
        },
      }
    },
    judgeProposal(machine, current, call) {
      let event: unknown
      try {
        event = (JSON.parse(call.args) as { event?: unknown } | null)?.event
      } catch {
        return { legal: false, reason: 'malformed-proposal' }
      }
      if (!isIdentifier(event)) return { legal: false, reason: 'malformed-proposal' }
      const after = advance(machine, current, event)
      if ('type' in after) return { legal: false, reason: after.reason === 'undeclared-event' ? 'undeclared-event' : 'guard-refused' }
      return { legal: true, event, after }
    },
  }
}
