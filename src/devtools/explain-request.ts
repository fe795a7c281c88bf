import { z } from 'zod'
import { closestName } from '../conversation/did-you-mean.js'
import { formatTurnExplanation, type ExplainInput } from '../conversation/explain.js'
import { explainTurn } from '../conversation/explain-turn.js'
import { findNonJson, type JsonObject } from '../conversation/json.js'
import type { MachineState } from '../conversation/machine.js'
import { badRequest, HttpError } from '../server/http-responses.js'
import type { DevtoolsExplanation, MessageExplanation, WhatIfResponse } from './devtools-api.js'
import { notFound, type DevtoolsContext, type KnownDefinition } from './devtools-context.js'

/**
 * "Why this route and not the others", computed on demand by the session's own decision code
 * (`explainTurn`, as `session.explainTurn` and `chatrail explain` run it) over inert routes: it
 * runs match functions, guards and a form's validate, never a route's response, and touches no
 * store. For a stored user message, in the state and context the conversation was in just before
 * it; for what-if, in any state the caller names.
 */

async function explained(known: KnownDefinition, at: MachineState<JsonObject>, input: ExplainInput): Promise<DevtoolsExplanation> {
  const { definition } = known
  const explanation = await explainTurn(definition, at, input)
  return {
    definition: { id: definition.id, revision: definition.revision },
    state: explanation.state,
    input: explanation.input,
    outcome: explanation.outcome,
    routes: explanation.routes,
    text: formatTurnExplanation(explanation),
  }
}

export async function explainMessage(context: DevtoolsContext, conversationId: string, messageId: string, principal: string | undefined): Promise<MessageExplanation> {
  // the state before the message from the decisions alone (devtools-context.ts `decided`): no answer's text is read
  const { summary, before } = await context.decided(conversationId, principal)
  const known = context.definitions.get(summary.definition.id)
  if (!known) throw new HttpError(404, 'unknown_definition', `The conversation was written under definition "${summary.definition.id}", which this handler was not given; pass it in \`definitions\` to explain its turns.`)
  const found = before(known.machine, messageId)
  if (!found) throw notFound('user message in this conversation')
  const { at } = found
  const input: ExplainInput = found.uiEvent === undefined ? found.text : { uiEvent: found.uiEvent, text: found.text }
  return { conversationId, messageId, ...(await explained(known, at, input)) }
}

const whatIfSchema = z.strictObject({
  definition: z.string().min(1),
  state: z.string().min(1),
  text: z.string().max(64 * 1024).optional(),
  uiEvent: z.string().min(1).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
})

export async function whatIf(context: DevtoolsContext, body: unknown): Promise<WhatIfResponse> {
  const parsed = whatIfSchema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue?.path.join('.') || 'body'
    throw badRequest(path, `what-if: ${path}: ${issue?.message ?? 'invalid'}. Send { "definition": "<id>", "state": "<state>", "text": "<message>" } (or "uiEvent" instead of "text"; "context" optional).`)
  }
  const request = parsed.data
  const known = context.definitions.get(request.definition)
  if (!known) {
    const near = closestName(request.definition, context.definitions.keys())
    throw new HttpError(404, 'unknown_definition', `There is no definition "${request.definition}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; this handler has ${[...context.definitions.keys()].join(', ') || 'none'}.`, { path: 'definition' })
  }
  if (!known.machine.states.has(request.state)) {
    const near = closestName(request.state, known.machine.states.keys())
    throw badRequest('state', `"${request.state}" is not a state of "${known.definition.id}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; its states are ${[...known.machine.states.keys()].join(', ')}.`)
  }
  if ((request.text === undefined) === (request.uiEvent === undefined)) throw badRequest('text', 'what-if: send exactly one of "text" (typed text) and "uiEvent" (a button click).')
  if (request.context && findNonJson(request.context)) throw badRequest('context', 'what-if: context must be a JSON object.')
  const at: MachineState<JsonObject> = { state: request.state, context: { ...known.machine.initial.context, ...(request.context as JsonObject | undefined) } }
  const input: ExplainInput = request.uiEvent === undefined ? (request.text as string) : { uiEvent: request.uiEvent }
  return explained(known, at, input)
}
