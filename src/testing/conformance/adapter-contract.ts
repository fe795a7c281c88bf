import { describe, expect, it } from 'vitest'
import type { AdapterFactory, AdapterRequest } from '../../contract/adapter.js'
import { streamChunkSchema } from '../../contract/schemas.js'
import type { StreamChunk, StreamSource } from '../../contract/stream.js'

/**
 * The adapter conformance suite (ADR-0001 invariants A1–A10, agentskit-contract.md §1.6), in the
 * style of Hono's `common.case.test.ts`: every adapter chatrail ships runs it, and anything it
 * cannot honour is skipped with a written reason.
 */

export type AdapterInvariant = 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'A7' | 'A8' | 'A9' | 'A10'

export interface AdapterContractOptions<F extends AdapterFactory> {
  /** A request the adapter answers successfully. Default: one user message, "Say hello". */
  request?: () => AdapterRequest
  /** A factory (and request) whose stream fails, for A9. Without it A9 is skipped, saying so. */
  failing?: () => { factory: AdapterFactory; request?: AdapterRequest }
  /** Observable work done so far (requests sent, processes spawned); checks A1's laziness. */
  workCount?: (factory: F) => number
  /** Invariants this adapter cannot honour, each with the reason: `{ A5: 'no tools' }`. */
  skip?: Partial<Record<AdapterInvariant, string>>
  /** Longest a single stream may take to end. Default 10 s. */
  timeoutMs?: number
}

interface Drained {
  chunks: StreamChunk[]
  thrown: unknown
}

const defaultRequest = (): AdapterRequest => ({
  messages: [{ id: 'contract-user-1', role: 'user', content: 'Say hello', status: 'complete', createdAt: new Date(0) }],
})

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/** Iterates to the end (or `stopAfter` chunks), recording a throw instead of propagating it. */
async function drain(iterator: AsyncIterator<StreamChunk>, timeoutMs: number, onChunk?: (chunk: StreamChunk) => void): Promise<Drained> {
  const chunks: StreamChunk[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the stream did not end within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), timeout])
      if (step.done) return { chunks, thrown: undefined }
      chunks.push(step.value)
      onChunk?.(step.value)
    }
  } catch (thrown) {
    if (thrown instanceof Error && thrown.message.startsWith('the stream did not end')) throw thrown
    return { chunks, thrown }
  } finally {
    clearTimeout(timer)
  }
}

const isTerminal = (chunk: StreamChunk): boolean => chunk.type === 'done' || chunk.type === 'error'

function expectOneTerminalLast(chunks: readonly StreamChunk[], where: string): void {
  const terminals = chunks.filter(isTerminal)
  expect(terminals.length, `${where}: expected exactly one done/error chunk, got ${terminals.length}`).toBe(1)
  expect(isTerminal(chunks[chunks.length - 1] as StreamChunk), `${where}: the terminal chunk must come last`).toBe(true)
  const terminal = terminals[0] as StreamChunk
  if (terminal.type === 'error') {
    expect(terminal.metadata?.error, `${where}: an error chunk must carry metadata.error (an Error)`).toBeInstanceOf(Error)
  }
}

/**
 * Declares a vitest `describe` block checking A1–A10 against fresh factories from `makeFactory`
 * (one per test). Call it at the top level of a test file.
 */
export function runAdapterContract<F extends AdapterFactory>(
  name: string,
  makeFactory: () => F,
  options: AdapterContractOptions<F> = {},
): void {
  const timeoutMs = options.timeoutMs ?? 10_000
  const makeRequest = options.request ?? defaultRequest
  const skip = options.skip ?? {}
  const check = (invariant: AdapterInvariant, title: string, body: () => Promise<void> | void): void => {
    const reason = skip[invariant]
    if (reason) it.skip(`${invariant} ${title} (skipped: ${reason})`, body)
    else it(`${invariant} ${title}`, body, timeoutMs * 3)
  }
  const succeed = async (factory: F, request = makeRequest()): Promise<Drained> =>
    drain(factory.createSource(request).stream(), timeoutMs)

  describe(`adapter contract: ${name}`, () => {
    check('A1', 'createSource is synchronous, returns { stream, abort }, and does no work before stream()', () => {
      const factory = makeFactory()
      const before = options.workCount?.(factory)
      const sources: StreamSource[] = [factory.createSource(makeRequest()), factory.createSource(makeRequest())]
      for (const source of sources) {
        expect(typeof (source as unknown as { then?: unknown }).then, 'createSource must not return a promise').not.toBe('function')
        expect(typeof source.stream).toBe('function')
        expect(typeof source.abort).toBe('function')
      }
      if (options.workCount) expect(options.workCount(factory), 'work happened before stream() was called').toBe(before)
      for (const source of sources) expect(source.abort()).toBeUndefined()
    })

    check('A2', 'stream() returns an async iterator that runs to its end once', async () => {
      const iterator = makeFactory().createSource(makeRequest()).stream()
      expect(typeof iterator.next).toBe('function')
      expect(typeof iterator[Symbol.asyncIterator]).toBe('function')
      const drained = await drain(iterator, timeoutMs)
      expect(drained.thrown).toBeUndefined()
      expect((await iterator.next()).done, 'an ended iterator must stay ended').toBe(true)
    })

    check('A3', 'a successful stream ends with exactly one terminal chunk, `done`, last', async () => {
      const { chunks, thrown } = await succeed(makeFactory())
      expect(thrown, 'the stream threw').toBeUndefined()
      expectOneTerminalLast(chunks, 'success')
      expect(chunks[chunks.length - 1]?.type).toBe('done')
    })

    check('A4', 'every chunk is self-contained and well-formed', async () => {
      const { chunks } = await succeed(makeFactory())
      expect(chunks.length).toBeGreaterThan(0)
      for (const chunk of chunks) {
        expect(streamChunkSchema.safeParse(chunk).success, `malformed chunk ${JSON.stringify(chunk)}`).toBe(true)
        if (chunk.type === 'tool_call') expect(chunk.toolCall, 'tool_call without toolCall').toBeDefined()
        if (chunk.type === 'usage') expect(chunk.usage, 'usage without usage').toBeDefined()
      }
    })

    check('A5', 'tool_call chunks carry complete JSON object args', async () => {
      const { chunks } = await succeed(makeFactory())
      for (const chunk of chunks.filter((candidate) => candidate.type === 'tool_call')) {
        const parsed: unknown = JSON.parse(chunk.toolCall?.args ?? 'null')
        expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), `args ${chunk.toolCall?.args}`).toBe(true)
      }
      expect(chunks[chunks.length - 1]?.type).toBe('done')
    })

    check('A6', 'abort() before stream() never throws and leaves nothing to stream but a terminal', async () => {
      const source = makeFactory().createSource(makeRequest())
      expect(source.abort()).toBeUndefined()
      const { chunks, thrown } = await drain(source.stream(), timeoutMs)
      expect(thrown).toBeUndefined()
      expect(chunks.filter((chunk) => !isTerminal(chunk))).toEqual([])
    })

    check('A6', 'abort() mid-stream never throws and nothing but a terminal chunk follows', async () => {
      const source = makeFactory().createSource(makeRequest())
      const iterator = source.stream()
      const first = await iterator.next()
      expect(source.abort()).toBeUndefined()
      expect(source.abort(), 'a second abort must be safe too').toBeUndefined()
      const rest = first.done ? { chunks: [], thrown: undefined } : await drain(iterator, timeoutMs)
      expect(rest.thrown).toBeUndefined()
      expect(rest.chunks.filter((chunk) => !isTerminal(chunk)), 'chunks after abort()').toEqual([])
    })

    check('A6', 'abort() after the end, twice, never throws', async () => {
      const source = makeFactory().createSource(makeRequest())
      const { thrown } = await drain(source.stream(), timeoutMs)
      expect(thrown).toBeUndefined()
      expect(source.abort()).toBeUndefined()
      expect(source.abort()).toBeUndefined()
    })

    check('A7', 'the request is not mutated (deep-frozen input streams normally and compares equal)', async () => {
      const request = makeRequest()
      const before = JSON.stringify(request)
      const { chunks, thrown } = await succeed(makeFactory(), deepFreeze(request))
      expect(thrown, 'the adapter threw on a frozen request (did it mutate it?)').toBeUndefined()
      expect(chunks[chunks.length - 1]?.type).toBe('done')
      expect(JSON.stringify(request)).toBe(before)
    })

    check('A8', 'unknown context.metadata is carried opaquely', async () => {
      const base = makeRequest()
      const metadata = { chatrailContract: { nested: [1, { deep: true }] } }
      const request: AdapterRequest = { ...base, context: { ...base.context, metadata: { ...base.context?.metadata, ...metadata } } }
      const { chunks, thrown } = await succeed(makeFactory(), request)
      expect(thrown).toBeUndefined()
      expect(chunks[chunks.length - 1]?.type).toBe('done')
      expect(request.context?.metadata?.chatrailContract).toEqual(metadata.chatrailContract)
    })

    if (options.failing) {
      const failing = options.failing
      check('A9', 'a failure arrives as exactly one error chunk with metadata.error, never as a throw', async () => {
        const { factory, request } = failing()
        const { chunks, thrown } = await drain(factory.createSource(request ?? makeRequest()).stream(), timeoutMs)
        expect(thrown, 'the stream threw instead of yielding an error chunk').toBeUndefined()
        expectOneTerminalLast(chunks, 'failure')
        expect(chunks[chunks.length - 1]?.type).toBe('error')
        expect(chunks.some((chunk) => chunk.type === 'done')).toBe(false)
      })
    } else {
      it.skip(`A9 a failure arrives as an error chunk (skipped: ${skip.A9 ?? 'no options.failing factory was given'})`, () => undefined)
    }

    check('A10', 'two sources from one factory stream independently (interleaved)', async () => {
      const factory = makeFactory()
      const left = factory.createSource(makeRequest()).stream()
      const right = factory.createSource({ ...makeRequest(), context: { temperature: 0 } }).stream()
      const seen: [StreamChunk[], StreamChunk[]] = [[], []]
      const live = [true, true]
      const deadline = Date.now() + timeoutMs
      while ((live[0] || live[1]) && Date.now() < deadline) {
        for (const side of [0, 1] as const) {
          if (!live[side]) continue
          const step = await (side === 0 ? left : right).next()
          if (step.done) live[side] = false
          else seen[side].push(step.value)
        }
      }
      expect(live, 'both streams must end').toEqual([false, false])
      expectOneTerminalLast(seen[0], 'first source')
      expectOneTerminalLast(seen[1], 'second source')
    })
  })
}
