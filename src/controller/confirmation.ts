import type { Message, ToolCall } from '../contract/message.js'
import { flushDoneRecord, type ControllerContext } from './controller-context.js'
import { ConfigError, describeThrown, ErrorCodes, ToolError } from './errors.js'
import { isPlainObject } from './safe-parse-args.js'
import { authorizeToolCall, refusal } from './tool-authorization.js'
import { toolCallPatcher } from './tool-calls.js'
import { executeTool, rejectedArgs } from './tool-execution.js'
import { needsFollowUp, runToolLoop } from './tool-loop.js'
import type { ToolOutcome } from './tool-execution.js'

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

function findCall(messages: readonly Message[], callId: string): { message: Message; call: ToolCall } | undefined {
  for (const message of messages) {
    const call = message.toolCalls?.find((candidate) => candidate.id === callId)
    if (call) return { message, call }
  }
  return undefined
}

/**
 * Settles a call waiting in `requires_confirmation`. `approve` runs the tool (execute-phase checks
 * still apply); `deny` records `Permission denied: <reason>`. Either then resumes the loop: when
 * the chat is idle, the call's message is the latest, and all its calls are settled and need a
 * reply, the tool loop continues with a fresh turn.
 * A call in any other status, or an unknown id, is a no-op (approving twice runs the tool once).
 * `idempotencyKey` (from an action confirmation record) reaches the tool's `execute` context.
 * A `stop()` or new turn during execution makes the result inert (the stop settled the call).
 */
export async function settleConfirmation(
  ctx: ControllerContext,
  callId: string,
  verdict: { approve: true; idempotencyKey?: string } | { approve: false; reason?: string },
): Promise<void> {
  const found = findCall(ctx.messages(), callId)
  if (!found || found.call.status !== 'requires_confirmation') return
  const { message, call } = found
  const patch = toolCallPatcher(ctx, message.id, callId)
  let outcome: ToolOutcome
  if (verdict.approve) {
    if (!ctx.tools.find(call.name)?.execute) return
    const generation = ctx.turns.generation()
    patch({ status: 'running' })
    outcome = await executeTool(ctx, call, (partial) => {
      if (ctx.turns.generation() === generation) patch({ result: partial })
    }, verdict.idempotencyKey)
    if (ctx.turns.generation() !== generation) return
  } else {
    outcome = { status: 'error', error: `Permission denied: ${verdict.reason ?? 'user denied access'}` }
  }
  patch(outcome)
  const state = ctx.store.getState()
  const latest = state.messages[state.messages.length - 1]
  if (state.status === 'streaming' || latest?.id !== message.id || !needsFollowUp(ctx, latest)) return
  flushDoneRecord(ctx)
  await runToolLoop(ctx, ctx.turns.begin(), message.id)
}

/** Strict JSON clone of proposal args: a plain object of JSON values only. */
function cloneArgs(args: unknown, name: string): Record<string, unknown> {
  const invalid = (why: string): ToolError =>
    new ToolError({ code: ErrorCodes.AK_TOOL_INVALID_INPUT, message: `proposeToolCall("${name}"): args ${why}`, hint: 'Pass a plain JSON object.' })
  if (!isPlainObject(args)) throw invalid('must be a plain object')
  let text: string | undefined
  try {
    text = JSON.stringify(args)
  } catch (error) {
    throw invalid(`are not JSON-serializable (${describeThrown(error)})`)
  }
  return JSON.parse(text as string) as Record<string, unknown>
}

/** Rejects a proposal `id`/`name` that is not a 1–128 character identifier. */
function assertIdentifier(field: 'id' | 'name', value: unknown): void {
  if (typeof value === 'string' && IDENTIFIER.test(value)) return
  throw new ToolError({
    code: ErrorCodes.AK_TOOL_INVALID_INPUT,
    message: `proposeToolCall: ${field} ${JSON.stringify(value)} is not a valid identifier`,
    hint: 'Use 1–128 characters from A–Z, a–z, 0–9 and . _ : -, starting with a letter or digit.',
  })
}

/**
 * The app (not the model) proposes a call that needs the user's confirmation. One id is one call:
 * an id already in history resolves to (a copy of) that call before anything else is checked, and
 * concurrent proposals of one id share one attempt (one `onToolCall`, one call). A proposal made
 * from inside `onToolCall` finds the call already in history. Otherwise see `commitProposal`.
 */
export async function proposeToolCall(
  ctx: ControllerContext,
  proposal: Pick<ToolCall, 'id' | 'name' | 'args'>,
): Promise<ToolCall> {
  assertIdentifier('id', proposal.id)
  const existing = findCall(ctx.messages(), proposal.id)
  if (existing) return { ...existing.call }
  const inFlight = ctx.proposals.get(proposal.id)
  if (inFlight) return { ...(await inFlight) }
  const attempt = commitProposal(ctx, proposal)
  ctx.proposals.set(proposal.id, attempt)
  const forget = (): void => {
    if (ctx.proposals.get(proposal.id) === attempt) ctx.proposals.delete(proposal.id)
  }
  attempt.then(forget, forget)
  return { ...(await attempt) }
}

/**
 * Validates the name, tool (registered with `requiresConfirmation` and `execute`), args and
 * propose-phase authorization — rejecting with a `ToolError`/`ConfigError` that has a code — then
 * appends an assistant message holding the call and awaits `onToolCall`.
 */
async function commitProposal(ctx: ControllerContext, proposal: Pick<ToolCall, 'id' | 'name' | 'args'>): Promise<ToolCall> {
  assertIdentifier('name', proposal.name)
  const tool = ctx.tools.find(proposal.name)
  if (!tool) {
    throw new ToolError({ code: ErrorCodes.AK_TOOL_NOT_FOUND, message: `proposeToolCall: no tool named "${proposal.name}"`, hint: 'Register it in ChatConfig.tools.' })
  }
  if (!tool.requiresConfirmation || !tool.execute) {
    throw new ConfigError({
      code: ErrorCodes.AK_CONFIG_INVALID,
      message: `proposeToolCall: tool "${proposal.name}" must have requiresConfirmation: true and an execute function`,
      hint: 'Only confirmable tools can be proposed; call the tool directly otherwise.',
    })
  }
  const args = cloneArgs(proposal.args, proposal.name)
  const verdict = rejectedArgs(ctx, tool, args)
  if (verdict) {
    throw new ToolError({ code: ErrorCodes.AK_TOOL_INVALID_INPUT, message: `proposeToolCall("${proposal.name}"): ${verdict.message ?? 'invalid arguments'}` })
  }
  const call: ToolCall = { id: proposal.id, name: proposal.name, args, status: 'requires_confirmation' }
  const refused = refusal(await authorizeToolCall(ctx, call, 'propose', tool), call)
  if (refused) throw refused
  const message = { ...ctx.kit.buildMessage({ role: 'assistant', content: '' }, ctx), toolCalls: [call] }
  ctx.store.dispatch({ type: 'messages-set', messages: [...ctx.messages(), message] })
  const hook = ctx.config().onToolCall
  if (hook) {
    try {
      await hook(call, { messages: ctx.messages(), tool })
    } catch (thrown) {
      toolCallPatcher(ctx, message.id, call.id)({ status: 'error', error: describeThrown(thrown) })
      throw thrown
    }
  }
  return call
}
