import { bench, describe } from 'vitest'
import type { AdapterRequest } from '../src/contract/adapter.js'
import type { Message } from '../src/contract/message.js'
import type { StreamChunk } from '../src/contract/stream.js'
import { createChatController } from '../src/controller/index.js'
import { scriptedAdapter } from '../src/testing/scripted-adapter.js'

// The controller's per-turn overhead as a ratio to iterating the same scripted stream directly
// (same adapter, same chunks). Three shapes: a short reply (10 chunks), a long one (1,000 chunks),
// and a short reply at a history of 1,000 messages (every chunk replaces the messages array).
// Rows are interleaved batch by batch and the median of 7 batches is reported, on stdout and in
// the bench names; absolute times are machine-dependent, only the ratios mean anything.

const reply = (chunks: number): StreamChunk[] => [
  ...Array.from({ length: chunks }, (_, index): StreamChunk => ({ type: 'text', content: `w${index} ` })),
  { type: 'done' },
]
const at = new Date(0)
const history = (size: number): Message[] =>
  Array.from({ length: size }, (_, index): Message => ({ id: `h${index}`, role: index % 2 ? 'assistant' : 'user', content: `message ${index}`, status: 'complete', createdAt: at }))

interface Shape {
  name: string
  direct: () => Promise<void>
  controller: () => Promise<void>
}

function shape(name: string, chunks: number, historySize: number): Shape {
  const adapter = scriptedAdapter([reply(chunks)])
  const past = history(historySize)
  const request: AdapterRequest = { messages: past }
  let id = 0
  const controller = createChatController({ adapter }, { ids: () => `m${++id}`, clock: () => at })
  return {
    name,
    direct: async () => {
      let text = ''
      for await (const chunk of adapter.createSource(request).stream()) if (chunk.type === 'text') text += chunk.content ?? ''
      if (!text) throw new Error('the scripted stream produced no text')
    },
    controller: async () => {
      controller.setMessages(past)
      await controller.send('q')
      if (controller.getState().status !== 'idle') throw new Error('the controller turn did not settle')
    },
  }
}

const shapes = [shape('short reply (10 chunks)', 10, 0), shape('long reply (1,000 chunks)', 1000, 0), shape('short reply at history 1,000', 10, 1000)]

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
async function perOp(fn: () => Promise<void>, repeat: number): Promise<number> {
  const started = performance.now()
  for (let index = 0; index < repeat; index += 1) await fn()
  return ((performance.now() - started) * 1000) / repeat
}

const results = new Map<string, { direct: number; controller: number; ratio: number }>()
for (const { name, direct, controller } of shapes) {
  const repeat = name.startsWith('long') ? 20 : 300
  await perOp(direct, repeat) // warm up both paths before measuring
  await perOp(controller, repeat)
  const ratios: number[] = []
  const directs: number[] = []
  const controllers: number[] = []
  for (let batch = 0; batch < 7; batch += 1) {
    const d = await perOp(direct, repeat)
    const c = await perOp(controller, repeat)
    directs.push(d)
    controllers.push(c)
    ratios.push(c / d)
  }
  results.set(name, { direct: median(directs), controller: median(controllers), ratio: median(ratios) })
}

console.log(
  [
    'controller per-turn overhead (median of 7 interleaved batches):',
    ...[...results].map(([name, r]) => `  ${name}: direct ${r.direct.toFixed(1)} µs, controller ${r.controller.toFixed(1)} µs → ${r.ratio.toFixed(2)}× the direct iteration`),
  ].join('\n'),
)

describe('controller turn vs iterating the scripted stream directly', () => {
  for (const { name, direct, controller } of shapes) {
    const ratio = results.get(name)?.ratio.toFixed(2) ?? '?'
    bench(`${name}: direct iteration (baseline)`, direct)
    bench(`${name}: controller turn [${ratio}× the baseline]`, controller)
  }
})
