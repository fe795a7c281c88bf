import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import type { AdapterFactory, AdapterRequest } from '../../../src/contract/adapter.js'
import { sourceChunk } from '../../../src/contract/message-source.js'
import type { StreamChunk } from '../../../src/contract/stream.js'
import { commandRoute, defineChat, eventRoute, patternRoute, type ChatDefinition } from '../../../src/index.js'
import { toNodeHandler, type ChatHandler } from '../../../src/server/index.js'

// A real node:http server on 127.0.0.1 around a handler, and useChat's own transport as the client.

export type Ctx = { deliveryDate?: string }

/** An agent answering `answer 1`, `answer 2`, … each with reasoning (`thinking N`) and a cited source (versions, extras). */
export function numberedAgent(): AdapterFactory {
  let n = 0
  return {
    createSource: () => ({
      abort: () => undefined,
      async *stream(): AsyncIterableIterator<StreamChunk> {
        n += 1
        yield { type: 'reasoning', content: `thinking ${n}` }
        yield { type: 'text', content: `answer ${n}` }
        yield sourceChunk({ url: `https://example.com/${n}`, title: `Source ${n}` })
        yield { type: 'done' }
      },
    }),
  }
}

/** The agentic fallback: answers free text, counting its calls; `gate` holds a reply until opened. */
export function countingAgent(reply = 'I am the agent.'): { adapter: { createSource: (request: AdapterRequest) => { stream: () => AsyncIterableIterator<StreamChunk>; abort: () => void } }; calls: () => number; hold: () => () => void } {
  let calls = 0
  let gate: Promise<void> | undefined
  return {
    calls: () => calls,
    hold() {
      let open!: () => void
      gate = new Promise<void>((resolve) => (open = resolve))
      return () => open()
    },
    adapter: {
      createSource: () => ({
        abort: () => undefined,
        async *stream() {
          calls++
          const [first, ...rest] = reply.split(' ')
          yield { type: 'text', content: first ?? '' }
          if (gate) await gate
          for (const word of rest) yield { type: 'text', content: ` ${word}` }
          yield { type: 'done' }
        },
      }),
    },
  }
}

export function deliveryDefinition(agent: ReturnType<typeof countingAgent>, onDateRoute: () => void = () => undefined): ChatDefinition<Ctx> {
  return defineChat<Ctx>({
    id: 'delivery',
    chat: { adapter: agent.adapter },
    conversation: {
      initial: 'idle',
      context: {},
      states: {
        idle: { on: { start: 'asking' } },
        asking: { on: { date: 'booked', cancel: 'idle' } },
        booked: { on: { start: 'asking' } },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day?' }),
        eventRoute({ id: 'cancel', uiEvent: 'cancel', event: 'cancel', response: 'Cancelled.' }),
        patternRoute({ id: 'date', pattern: /^deliver on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, event: 'date', assign: true, response: (_input, ctx) => {
          onDateRoute()
          return `Booked for ${ctx.match?.groups.deliveryDate}.`
        } }),
      ],
    },
  })
}

export interface Listening {
  readonly url: string
  readonly server: Server
  close: () => Promise<void>
}

export async function listen(handler: ChatHandler): Promise<Listening> {
  const server = createServer(toNodeHandler(handler))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

export const userMessage = (id: string, text: string, metadata?: unknown): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }], ...(metadata === undefined ? {} : { metadata }) })

export interface TurnReply {
  readonly message: UIMessage | undefined
  readonly chunks: UIMessageChunk[]
  readonly text: string
  readonly chatrail: { state: string; events: string[]; actions: string[]; trace?: { kind: string; replayed: boolean } } | undefined
}

/** One turn through the AI SDK's DefaultChatTransport (what useChat uses) and its message reader. */
export async function sendTurn(url: string, chatId: string, messages: UIMessage[], options: { trigger?: 'submit-message' | 'regenerate-message'; messageId?: string } = {}): Promise<TurnReply> {
  const transport = new DefaultChatTransport<UIMessage>({ api: url })
  const stream = await transport.sendMessages({ chatId, messages, trigger: options.trigger ?? 'submit-message', messageId: options.messageId, abortSignal: undefined })
  const chunks: UIMessageChunk[] = []
  const [forReading, forCounting] = stream.tee()
  const counting = (async () => {
    const reader = forCounting.getReader()
    for (let step = await reader.read(); !step.done; step = await reader.read()) chunks.push(step.value)
  })()
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream({ stream: forReading, terminateOnError: true })) message = snapshot
  await counting
  const text = (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
  const data = (message?.parts ?? []).find((part) => part.type === 'data-chatrail') as { data: TurnReply['chatrail'] } | undefined
  return { message, chunks, text, chatrail: data?.data }
}

/** Polls `check` until it holds (a turn finishing in the background); fails after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * Reads SSE text from a response body until `until` matches what has arrived (or the body ends);
 * returns it all. Pass one `decoder` to calls that read the same body in turns, so a character
 * split between two reads is decoded whole.
 */
export async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, until: (text: string) => boolean, decoder = new TextDecoder()): Promise<string> {
  let text = ''
  while (!until(text)) {
    const step = await reader.read()
    if (step.done) break
    text += decoder.decode(step.value, { stream: true })
  }
  return text
}
