import type { ZodType } from 'zod'
import type { AdapterFactory } from '../contract/adapter.js'
import type { Message, ToolCall } from '../contract/message.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import type { ArgsValidator, ToolDefinition } from '../contract/tool.js'
import { safeParseArgs } from '../controller/safe-parse-args.js'
import { serializeToolResult } from '../controller/tool-execution.js'

/**
 * The server's tool loop: the model's steps of one turn as one chunk stream. A step's `tool_call`
 * chunks for tools the definition declares with `execute` are run here after the step's `done`
 * (inputs validated against the tool's schema, each call under a timeout and the turn's abort),
 * their results streamed as `tool_result` chunks (an error result for a failure, a timeout, an
 * invalid input, an undeclared tool), and the model called again with the step's answer and the
 * results, until a step calls no tool or `maxSteps` model calls were made. The turn (run-turn.ts)
 * holds and renews the lease and reads this as it reads any adapter; its stop, timeout and shutdown
 * abort the running step and the running tool. The first step's decision record is the turn's.
 *
 * A call to a tool marked `requiresConfirmation` is not run: once the step's other calls ran, the
 * loop pauses (`paused()`: what the stored answer keeps to go on from) and its stream ends; the
 * user's approval resumes it (`resume`, tool-approval.ts), running approved calls and telling the
 * model of denied ones, then going on as before. A call with a confirmation record is decided
 * through the record instead (`settle`, tool-confirmations.ts), whichever door decided it first.
 */
export interface ServerToolOptions {
  /** The most model calls one turn makes (the first one included; a resumed turn counts on). Default 5. */
  readonly maxSteps?: number
  /** How long one tool call may run before it fails with a timeout (its `abortSignal` fires). Default 30 s. */
  readonly timeoutMs?: number
}

export interface ToolLoopInput {
  /** The session's adapter (routing first; a follow-up ending in tool messages is a continuation). */
  readonly adapter: AdapterFactory
  /** The definition's tools: what the model sees and all the server may run. */
  readonly tools: readonly ToolDefinition[]
  readonly validateArgs: ArgsValidator | undefined
  /** History plus the user message. */
  readonly messages: readonly Message[]
  readonly maxSteps: number
  readonly timeoutMs: number
  readonly now: () => Date
  /** Ids of the request-only messages between steps (never stored), and of approvals. */
  readonly stepId: (step: number) => string
  /** A paused loop and the user's answers to its approvals: go on from there. */
  readonly resume?: ResumeInput | undefined
}

/** What a resumed loop goes on from. */
export interface ResumeInput {
  readonly paused: PausedLoop
  readonly idempotencyKey: (approvalId: string) => string
  /**
   * Settles an answered call through its confirmation record (tool-confirmations.ts): `run` runs it
   * (under the turn's abort, with the key given). Undefined: the call has no record, the stored
   * answer decides as before.
   */
  readonly settle?: ((call: PausedCall, run: (idempotencyKey: string) => Promise<CallOutcome>) => Promise<CallOutcome | undefined>) | undefined
}

/** What running one call needs: the tools, their check, the timeout and what `execute` is told of the conversation. */
export type CallRunner = Pick<ToolLoopInput, 'tools' | 'validateArgs' | 'timeoutMs' | 'messages'>

/** A call's outcome: its result text, or the error the model reads. */
export interface CallOutcome {
  readonly error: boolean
  readonly text: string
  /** The user denied the call (the model reads `text`, the wire shows `tool-output-denied`). */
  readonly denied?: true
}

/** A finished step, as the model reads it on the next one. */
export interface LoopStep {
  readonly text: string
  readonly calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly args: Record<string, unknown>; readonly outcome: CallOutcome }>
}

/** A call of the paused step: run already (`outcome`), or awaiting the user (`approvalId`, the answer then stored on the call's `metadata.tools` entry). */
export interface PausedCall {
  readonly id: string
  readonly name: string
  readonly args: Record<string, unknown>
  readonly outcome?: CallOutcome
  readonly approvalId?: string
  /** Set on resume from the stored answer: the user's answer. */
  readonly answer?: { readonly approved: boolean; readonly reason?: string }
  /** The call's confirmation record, when the server keeps one (tool-confirmations.ts). */
  readonly token?: string
}

/** What a paused loop keeps (`metadata.toolLoop` of the stored answer): JSON only. */
export interface PausedLoop {
  /** The paused step's number (1 for the first model call). */
  readonly step: number
  /** The steps before it. */
  readonly steps: readonly LoopStep[]
  /** The paused step's text and calls. */
  readonly text: string
  readonly calls: readonly PausedCall[]
  /** The first step's decision record. */
  readonly record?: unknown
}

export interface ToolLoopSource extends StreamSource {
  /** Set once the stream ended paused on approvals. */
  paused: () => PausedLoop | undefined
}

export const DEFAULT_MAX_STEPS = 5
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000

interface LoopState {
  paused?: PausedLoop
}

export function toolLoopSource(input: ToolLoopInput): ToolLoopSource {
  const controller = new AbortController()
  const state: LoopState = {}
  let current: StreamSource | undefined
  const abort = (): void => {
    if (controller.signal.aborted) return
    controller.abort()
    current?.abort()
  }
  const open = (messages: Message[]): StreamSource => {
    current = input.adapter.createSource({ messages, context: { tools: [...input.tools] } })
    return current
  }
  return { stream: () => steps(input, controller.signal, open, state), abort, paused: () => state.paused }
}

const resultChunk = (call: { id: string; name: string; args: Record<string, unknown> }, outcome: CallOutcome): StreamChunk => ({
  type: 'tool_result',
  content: outcome.text,
  toolCall: { id: call.id, name: call.name, args: JSON.stringify(call.args), result: outcome.text },
  ...(outcome.denied ? { metadata: { isError: true, denied: true } } : outcome.error ? { metadata: { isError: true } } : {}),
})

async function* steps(input: ToolLoopInput, signal: AbortSignal, open: (messages: Message[]) => StreamSource, state: LoopState): AsyncGenerator<StreamChunk> {
  const done: LoopStep[] = []
  let record: unknown
  let first = 1
  if (input.resume) {
    const { paused, idempotencyKey, settle } = input.resume
    done.push(...paused.steps)
    record = paused.record
    const calls: Array<LoopStep['calls'][number]> = []
    for (const call of paused.calls) {
      let outcome = call.outcome
      if (!outcome) {
        // a call with a confirmation record is decided through it (either door may have decided already)
        const settled = settle && call.approvalId !== undefined ? await settle(call, (key) => runToolCall(input, call, signal, key)) : undefined
        outcome = settled ?? (await answeredCall(input, call, signal, idempotencyKey))
        if (signal.aborted) return
        yield resultChunk(call, outcome)
      }
      calls.push({ id: call.id, name: call.name, args: call.args, outcome })
    }
    done.push({ text: paused.text, calls })
    first = paused.step + 1
    if (first > input.maxSteps) {
      yield { type: 'done', ...(record === undefined ? {} : { metadata: { chatrail: record } }) }
      return
    }
  }
  for (let step = first; !signal.aborted; step++) {
    const calls: ToolCall[] = []
    let text = ''
    let end: StreamChunk | undefined
    for await (const chunk of open([...input.messages, ...stepMessages(input, done)]).stream()) {
      if (signal.aborted) return
      if (chunk.type === 'done') {
        end = chunk
        break
      }
      if (chunk.type === 'text' && typeof chunk.content === 'string') text += chunk.content
      // a call that arrives with its result was run by the agent itself (a CLI's command)
      if (chunk.type === 'tool_call' && chunk.toolCall && chunk.toolCall.result === undefined && !calls.some((call) => call.id === chunk.toolCall?.id)) {
        calls.push({ id: chunk.toolCall.id, name: chunk.toolCall.name, args: safeParseArgs(chunk.toolCall.args), status: 'pending' })
      }
      yield chunk
      if (chunk.type === 'error') return
    }
    if (!end || signal.aborted) return
    if (step === first && input.resume === undefined) record = end.metadata?.chatrail
    if (calls.length === 0) {
      yield withRecord(end, record)
      return
    }
    const last = step >= input.maxSteps
    const settled: Array<LoopStep['calls'][number]> = []
    const awaiting: PausedCall[] = []
    for (const call of calls) {
      if (!last && needsApproval(input, call)) {
        awaiting.push({ id: call.id, name: call.name, args: call.args, approvalId: `${input.stepId(step)}.${call.id}` })
        continue
      }
      const outcome = last
        ? { error: true, text: `Not run: the turn reached its limit of ${input.maxSteps} model steps.` }
        : await runToolCall(input, call, signal, undefined)
      if (signal.aborted) return
      settled.push({ id: call.id, name: call.name, args: call.args, outcome })
      yield resultChunk(call, outcome)
    }
    if (awaiting.length > 0) {
      // the calls keep the model's order: those run already carry their outcome
      const ordered = calls.map((call) => awaiting.find((waiting) => waiting.id === call.id) ?? { ...settled.find((ran) => ran.id === call.id) as LoopStep['calls'][number] })
      state.paused = { step, steps: done, text, calls: ordered, ...(record === undefined ? {} : { record }) }
      yield withRecord(end, record)
      return
    }
    if (last) {
      yield withRecord(end, record)
      return
    }
    done.push({ text, calls: settled })
  }
}

/** A paused call as the user's stored answer decides it: denied (never run), or run under its key. */
async function answeredCall(input: ToolLoopInput, call: PausedCall, signal: AbortSignal, idempotencyKey: (approvalId: string) => string): Promise<CallOutcome> {
  const answer = call.answer
  if (!answer?.approved) {
    const why = answer?.reason ? ` (${answer.reason})` : ''
    return { error: true, denied: true, text: `The user denied this call${why}; it was not run.` }
  }
  return runToolCall(input, call, signal, call.approvalId === undefined ? undefined : idempotencyKey(call.approvalId))
}

/** A declared tool with `execute` marked `requiresConfirmation`: the user approves each call first. */
function needsApproval(input: ToolLoopInput, call: ToolCall): boolean {
  const tool = input.tools.find((candidate) => candidate.name === call.name)
  return tool?.execute !== undefined && tool.requiresConfirmation === true
}

/** The finished steps as the model reads them: per step its answer with its calls settled, and one `tool` message per call. */
function stepMessages(input: ToolLoopInput, steps: readonly LoopStep[]): Message[] {
  const createdAt = input.now()
  return steps.flatMap((step, index): Message[] => {
    const id = input.stepId(index + 1)
    const toolCalls: ToolCall[] = step.calls.map(({ id: callId, name, args, outcome }) => ({ id: callId, name, args, status: outcome.error ? 'error' : 'complete', ...(outcome.error ? { error: outcome.text } : { result: outcome.text }) }))
    const assistant: Message = { id, role: 'assistant', content: step.text, toolCalls, status: 'complete', createdAt }
    return [assistant, ...step.calls.map(({ id: callId, outcome }, at): Message => ({ id: `${id}-${at + 1}`, role: 'tool', content: outcome.text, toolCallId: callId, status: 'complete', createdAt }))]
  })
}

function withRecord(done: StreamChunk, record: unknown): StreamChunk {
  if (record === undefined || done.metadata?.chatrail !== undefined) return done
  return { ...done, metadata: { ...done.metadata, chatrail: record } }
}

/** One call to its outcome; never rejects. Only a declared tool with `execute` runs, on a valid input. */
export async function runToolCall(input: CallRunner, call: Pick<ToolCall, 'id' | 'name' | 'args'>, turn: AbortSignal, idempotencyKey: string | undefined): Promise<CallOutcome> {
  const tool = input.tools.find((candidate) => candidate.name === call.name)
  if (!tool?.execute) return { error: true, text: `Tool "${call.name}" is not available on this server; the tools are: ${input.tools.filter((t) => t.execute).map((t) => t.name).join(', ') || 'none'}.` }
  // only a call the user approved runs a tool that requires confirmation (it comes with its key)
  if (tool.requiresConfirmation && idempotencyKey === undefined) return { error: true, text: `Tool "${call.name}" requires the user's approval; it was not run.` }
  const invalid = await invalidInput(input.validateArgs, tool, call.args)
  if (invalid !== undefined) return { error: true, text: `Tool "${call.name}" got an invalid input: ${invalid}` }
  const execute = tool.execute
  const controller = new AbortController()
  const onTurnAbort = (): void => controller.abort(turn.reason)
  turn.addEventListener('abort', onTurnAbort, { once: true })
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<CallOutcome>((resolve) => {
    timer = setTimeout(() => {
      // settled before the abort, whose listener below would otherwise report a stop
      resolve({ error: true, text: `Tool "${call.name}" timed out after ${input.timeoutMs} ms.` })
      controller.abort(new Error('tool timeout'))
    }, input.timeoutMs)
  })
  const stopped = new Promise<CallOutcome>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve({ error: true, text: `Tool "${call.name}" was stopped.` }), { once: true })
  })
  const run = (async (): Promise<CallOutcome> => {
    try {
      await tool.init?.()
      const returned = await execute(call.args, { messages: [...input.messages], call: { ...call, status: 'running' }, abortSignal: controller.signal, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) })
      let text = ''
      if (isAsyncIterable(returned)) for await (const piece of returned) text += serializeToolResult(piece)
      else text = serializeToolResult(returned)
      return { error: false, text }
    } catch (thrown) {
      return { error: true, text: `Tool "${call.name}" failed: ${thrown instanceof Error ? thrown.message : serializeToolResult(thrown)}` }
    }
  })()
  try {
    return await Promise.race([run, timedOut, stopped])
  } finally {
    clearTimeout(timer)
    turn.removeEventListener('abort', onTurnAbort)
  }
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'

/** Compiled schemas, per tool definition (a definition's tools live as long as the handler). */
const compiled = new WeakMap<ToolDefinition, ZodType | null>()

/**
 * Why `args` do not fit the tool's schema, or undefined when they do (or it has none). The app's
 * `chat.validateArgs` decides when it is set; otherwise the schema is checked as JSON Schema.
 */
export async function invalidInput(validateArgs: ArgsValidator | undefined, tool: ToolDefinition, args: Record<string, unknown>): Promise<string | undefined> {
  if (!tool.schema) return undefined
  if (validateArgs) {
    const verdict = validateArgs(tool.schema, args)
    if (verdict.valid) return undefined
    return verdict.message ?? verdict.errors?.map((issue) => `${issue.path}: ${issue.message}`).join('; ') ?? 'invalid arguments'
  }
  let schema = compiled.get(tool)
  if (schema === undefined) {
    try {
      // classic zod (fromJSONSchema is not in zod/mini) loads on the first schema checked, not with the server
      const { fromJSONSchema } = await import('zod')
      schema = fromJSONSchema(tool.schema as Parameters<typeof fromJSONSchema>[0])
    } catch {
      schema = null // a schema zod cannot read is left to the tool
    }
    compiled.set(tool, schema)
  }
  if (schema === null) return undefined
  const result = schema.safeParse(args)
  if (result.success) return undefined
  return result.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`).join('; ')
}
