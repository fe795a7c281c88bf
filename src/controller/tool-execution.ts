import type { ToolCall } from '../contract/message.js'
import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, ToolError } from './errors.js'
import { elapsedMs } from './ids.js'
import { authorizeToolCall } from './tool-authorization.js'

export interface ToolOutcome {
  status: 'complete' | 'error'
  result?: string
  error?: string
}

/** `null`/`undefined` → `''`; strings and errors → `String`; anything else → JSON (or `String`). */
export function serializeToolResult(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string' || value instanceof Error) return String(value)
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'

const failure = (error: ToolError): ToolOutcome => ({ status: 'error', error: error.toString() })

/**
 * Runs one tool call to an outcome; never rejects. Order (agentskit-contract §2.6): registered
 * with `execute` → `validateArgs` (when the tool has a schema) → execute-phase authorization →
 * lazy `init` → `execute`. An async-iterable result streams partial results through `onPartial`.
 * Failures stay in the outcome (`ToolCall.error`), never in `state.error`.
 */
export async function executeTool(
  ctx: ControllerContext,
  call: ToolCall,
  onPartial: (result: string) => void,
): Promise<ToolOutcome> {
  const tool = ctx.tools.find(call.name)
  if (!tool?.execute) {
    return failure(
      new ToolError({
        code: ErrorCodes.AK_TOOL_NOT_FOUND,
        message: `Tool "${call.name}" is not registered or has no execute function`,
        hint: `Add a tool named "${call.name}" with execute to ChatConfig.tools.`,
      }),
    )
  }
  const validate = ctx.config().validateArgs
  if (validate && tool.schema) {
    const verdict = validate(tool.schema, call.args)
    if (!verdict.valid) {
      const details = verdict.message ?? verdict.errors?.map((issue) => `${issue.path}: ${issue.message}`).join('; ') ?? 'invalid arguments'
      return failure(new ToolError({ code: ErrorCodes.AK_TOOL_INVALID_INPUT, message: `Tool "${call.name}" got invalid arguments: ${details}` }))
    }
  }
  const decision = await authorizeToolCall(ctx, call, 'execute', tool)
  if (!decision.allowed) {
    return failure(
      new ToolError({ code: ErrorCodes.AK_TOOL_FORBIDDEN, message: decision.reason ?? `Tool "${call.name}" is not authorized` }),
    )
  }
  const execute = tool.execute
  const started = ctx.clock()
  const run = async (): Promise<ToolOutcome> => {
    try {
      await ctx.tools.ensureInitialized(tool)
      ctx.emit({ type: 'tool:start', name: call.name, args: call.args })
      const returned = await execute(call.args, { messages: ctx.store.getState().messages, call })
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
      ctx.emit({ type: 'tool:end', name: call.name, result, durationMs: elapsedMs(started, ctx.clock()) })
      return { status: 'complete', result }
    } catch (thrown) {
      const error = new ToolError({
        code: ErrorCodes.AK_TOOL_EXEC_FAILED,
        message: `Tool "${call.name}" threw during execution: ${describeThrown(thrown)}`,
        cause: thrown,
      })
      ctx.emit({ type: 'error', error })
      ctx.emit({ type: 'tool:end', name: call.name, result: `Error: ${describeThrown(thrown)}`, durationMs: elapsedMs(started, ctx.clock()) })
      return failure(error)
    }
  }
  return ctx.tools.track(run())
}
