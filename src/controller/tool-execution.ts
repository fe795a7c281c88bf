import type { ChatrailErrorOptions } from '../contract/errors.js'
import type { ToolCall } from '../contract/message.js'
import type { ArgsValidationResult, ToolDefinition } from '../contract/tool.js'
import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, ToolError } from './errors.js'
import { lifecycleOf } from './tool-lifecycle.js'
import { elapsedMs } from './turn-measures.js'
import { authorizeToolCall, refusal } from './tool-authorization.js'

export interface ToolOutcome {
  status: 'complete' | 'error'
  result?: string
  error?: string
}

/** `null`/`undefined` → `''`; strings and errors → `String`; anything else → JSON (or `String`). */
export function serializeToolResult(value: unknown): string {
  if (value === null || value === undefined) return ''
  return value instanceof Error ? String(value) : describeThrown(value)
}

/**
 * Runs `config.validateArgs` on `args` when the tool has a schema; returns the verdict only when
 * it rejects them (each caller words its own error).
 */
export function rejectedArgs(ctx: ControllerContext, tool: ToolDefinition, args: Record<string, unknown>): ArgsValidationResult | undefined {
  const validate = ctx.config().validateArgs
  const verdict = validate && tool.schema ? validate(tool.schema, args) : undefined
  return verdict && !verdict.valid ? verdict : undefined
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'

const failure = (error: ToolError): ToolOutcome => ({ status: 'error', error: error.toString() })
const toolFailure = (options: ChatrailErrorOptions): ToolOutcome => failure(new ToolError(options))

/**
 * Runs one tool call to an outcome; never rejects. Order (agentskit-contract §2.6): registered
 * with `execute` → `validateArgs` (when the tool has a schema) → execute-phase authorization →
 * lazy `init` → the authorization re-checked (nothing it rested on changed since) → `execute`.
 * An async-iterable result streams partial results through `onPartial`. Failures stay in the
 * outcome (`ToolCall.error`), never in `state.error`.
 */
export async function executeTool(
  ctx: ControllerContext,
  call: ToolCall,
  onPartial: (result: string) => void,
  idempotencyKey?: string,
): Promise<ToolOutcome> {
  const tool = ctx.tools.find(call.name)
  if (!tool?.execute) {
    return toolFailure({
      code: ErrorCodes.AK_TOOL_NOT_FOUND,
      message: `Tool "${call.name}" is not registered or has no execute function`,
      hint: `Add a tool named "${call.name}" with execute to ChatConfig.tools.`,
    })
  }
  const verdict = rejectedArgs(ctx, tool, call.args)
  if (verdict) {
    const details = verdict.message ?? verdict.errors?.map((issue) => `${issue.path}: ${issue.message}`).join('; ') ?? 'invalid arguments'
    return toolFailure({ code: ErrorCodes.AK_TOOL_INVALID_INPUT, message: `Tool "${call.name}" got invalid arguments: ${details}` })
  }
  const decision = await authorizeToolCall(ctx, call, 'execute', tool)
  const denied = refusal(decision, call)
  if (denied) return failure(denied)
  const execute = tool.execute
  const started = ctx.clock()
  const ended = (result: string): void => {
    ctx.emit({ type: 'tool:end', name: call.name, result, durationMs: elapsedMs(started, ctx.clock()) })
  }
  const run = async (): Promise<ToolOutcome> => {
    try {
      await lifecycleOf(ctx.tools).ensureInitialized(tool)
      // The last await before execute: a policy or tool changed during init refuses the call.
      const late = refusal(decision, call)
      if (late) return failure(late)
      ctx.emit({ type: 'tool:start', name: call.name, args: call.args })
      const returned = await execute(call.args, { messages: ctx.messages(), call, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) })
      let result: string
      if (isAsyncIterable(returned)) {
        result = ''
        for await (const piece of returned) {
          result += serializeToolResult(piece)
          onPartial(result)
        }
      } else {
        result = serializeToolResult(returned)
      }
      ended(result)
      return { status: 'complete', result }
    } catch (thrown) {
      const error = new ToolError({
        code: ErrorCodes.AK_TOOL_EXEC_FAILED,
        message: `Tool "${call.name}" threw during execution: ${describeThrown(thrown)}`,
        cause: thrown,
      })
      ctx.emit({ type: 'error', error })
      ended(`Error: ${describeThrown(thrown)}`)
      return failure(error)
    }
  }
  return lifecycleOf(ctx.tools).track(tool, run())
}
