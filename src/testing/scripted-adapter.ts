import type { AdapterCapabilities, AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import { ChatrailError, markErrorClass } from '../contract/errors.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'

/**
 * A test double that is product (`chatrail/testing`): an `AdapterFactory` that plays one scripted
 * step per `createSource` call and records what it was asked. No vitest import: the demo uses it.
 */

/** One turn's reply: a string (text + done), a chunk list, or an async iterable played verbatim. */
export type ScriptedReply = string | readonly StreamChunk[] | AsyncIterable<StreamChunk>

/** A step is a reply, or a function of the request (and the 0-based call number) returning one. */
export type ScriptedStep = ScriptedReply | ((request: AdapterRequest, call: number) => ScriptedReply)

export interface ScriptedAdapterOptions {
  /**
   * Strict: a call beyond the last step throws `ScriptError` (`SCRIPT_EXCEEDED`) from
   * `createSource` and is remembered for `assertDone()`. Loose (default): steps repeat in a cycle.
   */
  strict?: boolean
  capabilities?: AdapterCapabilities
}

export interface ScriptedCall {
  /** 0-based call number. */
  readonly index: number
  /** The request exactly as received (not copied). */
  readonly request: AdapterRequest
  /** The step played, or undefined when the script was exceeded. */
  readonly step: number | undefined
  /** `stream()` was called. */
  streamed: boolean
  /** `abort()` was called (at any point). */
  aborted: boolean
  /** The chunks actually delivered to the consumer. */
  readonly chunks: StreamChunk[]
}

export interface ScriptedAdapter extends AdapterFactory {
  readonly calls: readonly ScriptedCall[]
  readonly requests: readonly AdapterRequest[]
  /** Steps not yet requested (strict order). */
  readonly remaining: number
  /** Throws a `ScriptError` when scripted steps were left unplayed or the script was exceeded. */
  assertDone: () => void
}

/** The script was exceeded (`SCRIPT_EXCEEDED`) or not used up (`SCRIPT_LEFTOVER`). */
export class ScriptError extends ChatrailError {
  constructor(code: 'SCRIPT_EXCEEDED' | 'SCRIPT_LEFTOVER', message: string, hint: string) {
    super({ code, message, hint })
    this.name = 'ScriptError'
  }

  static override isInstance = markErrorClass(ScriptError, 'ScriptError')
}

/** A conventional error chunk: `content` and `metadata.error` (an `Error`), as A3/A9 require. */
export function errorChunk(message: string, error: Error = new Error(message)): StreamChunk {
  return { type: 'error', content: message, metadata: { error } }
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<StreamChunk> =>
  typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'

/**
 * A chunk list as a well-formed stream: play up to the first `done`/`error`, append `done` when
 * there is no terminal chunk, and give an error chunk without `metadata.error` an `Error`.
 */
export function normalizeScript(reply: string | readonly StreamChunk[]): StreamChunk[] {
  if (typeof reply === 'string') return [{ type: 'text', content: reply }, { type: 'done' }]
  const played: StreamChunk[] = []
  for (const chunk of reply) {
    if (chunk.type === 'error' && !(chunk.metadata?.error instanceof Error)) {
      played.push({ ...chunk, metadata: { ...chunk.metadata, error: new Error(chunk.content ?? 'Scripted error') } })
      return played
    }
    played.push(chunk)
    if (chunk.type === 'done' || chunk.type === 'error') return played
  }
  played.push({ type: 'done' })
  return played
}

const describe = (step: ScriptedStep): string =>
  typeof step === 'string' ? JSON.stringify(step.length > 40 ? `${step.slice(0, 40)}…` : step) : typeof step === 'function' ? 'a function' : Array.isArray(step) ? `${step.length} chunks` : 'an async iterable'

/**
 * Creates a scripted adapter. Call `i` plays `steps[i]` (A1: nothing is evaluated before `stream()`).
 * `abort()` ends the stream quietly at any point, even while an async-iterable step is waiting.
 * A source can be iterated once; a second `stream()` yields one error chunk.
 */
export function scriptedAdapter(steps: readonly ScriptedStep[], options: ScriptedAdapterOptions = {}): ScriptedAdapter {
  const calls: ScriptedCall[] = []
  const exceeded: number[] = []

  const createSource = (request: AdapterRequest): StreamSource => {
    const index = calls.length
    const step = index < steps.length ? index : !options.strict && steps.length > 0 ? index % steps.length : undefined
    const call: ScriptedCall = { index, request, step, streamed: false, aborted: false, chunks: [] }
    calls.push(call)
    if (step === undefined && options.strict) {
      exceeded.push(index)
      throw new ScriptError(
        'SCRIPT_EXCEEDED',
        `scriptedAdapter: call ${index + 1} has no scripted step (the script has ${steps.length})`,
        'Add a step for this turn, or pass { strict: false } to repeat the script.',
      )
    }
    let wake: () => void = () => undefined
    const aborted = new Promise<'aborted'>((resolve) => {
      wake = () => resolve('aborted')
    })

    async function* play(): AsyncGenerator<StreamChunk> {
      if (call.aborted) return
      const scripted = step === undefined ? [] : (steps[step] as ScriptedStep)
      const reply = typeof scripted === 'function' ? scripted(request, index) : scripted
      if (!isAsyncIterable(reply)) {
        for (const chunk of normalizeScript(reply)) {
          if (call.aborted) return
          call.chunks.push(chunk)
          yield chunk
          if (call.aborted) return
        }
        return
      }
      const inner = reply[Symbol.asyncIterator]()
      try {
        for (;;) {
          if (call.aborted) return
          const next = await Promise.race([inner.next(), aborted])
          if (next === 'aborted' || next.done || call.aborted) return
          call.chunks.push(next.value)
          yield next.value
        }
      } finally {
        void Promise.resolve(inner.return?.()).catch(() => undefined)
      }
    }

    return {
      stream: () => {
        if (call.streamed) {
          const error = errorChunk('scriptedAdapter: this source was already streamed (A2: iterate a source once)')
          return (async function* once() {
            yield error
          })()
        }
        call.streamed = true
        return play()
      },
      abort: () => {
        call.aborted = true
        wake()
      },
    }
  }

  return {
    createSource,
    capabilities: options.capabilities ?? { streaming: true, tools: true, reasoning: true, usage: true },
    get calls() {
      return calls
    },
    get requests() {
      return calls.map((call) => call.request)
    },
    get remaining() {
      return Math.max(0, steps.length - calls.length)
    },
    assertDone: () => {
      if (exceeded.length > 0) {
        throw new ScriptError(
          'SCRIPT_EXCEEDED',
          `scriptedAdapter: ${exceeded.length} call(s) beyond the ${steps.length} scripted step(s) (calls ${exceeded.map((i) => i + 1).join(', ')})`,
          'Add steps for the extra turns, or find what made the extra model calls.',
        )
      }
      if (calls.length < steps.length) {
        const left = steps.slice(calls.length).map((step, offset) => `#${calls.length + offset + 1} (${describe(step)})`)
        throw new ScriptError(
          'SCRIPT_LEFTOVER',
          `scriptedAdapter: ${left.length} scripted step(s) never requested: ${left.join(', ')}`,
          'Remove the unused steps, or drive the conversation far enough to use them.',
        )
      }
    },
  }
}
