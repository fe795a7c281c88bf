import v8 from 'node:v8'
import vm from 'node:vm'
import { bench, describe } from 'vitest'
import type { Message } from '../src/contract/message.js'
import type { ChatSession } from '../src/index.js'
import { loadBundled } from './support/bundled.js'
import { scripted } from './support/scripted-adapter.js'
import { compare, ratioText, spreadOf, type Comparison, type Spread } from './support/compare.js'

// The conversation core against the peer's numbers (research/peer-bench.md), one process, ratios
// only: (a) last of 10,000 command routes vs last of 10, (b) a turn at history 10,000 vs 10,
// (c) a replay vs a fresh turn, (d) a deterministic controller turn and (g) a turn no route matches
// vs a scripted text turn through the same controller, (e) lint and (f) validation of 10,000 routes,
// plus session memory per turn against a plain array push. Each pair of rows is interleaved batch
// by batch and the median of the per-pair ratios is reported, printed on stdout and in the bench
// names. docs/performance.md has the figures and the design behind them.

// The bundled build, as apps run it (support/bundled.ts says why not `src/` through vitest).
const { commandRoute, createChatController, createChatSession, defineChat, lintDefinition, validateDefinition } = await loadBundled()

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

function definition(routes: number) {
  return defineChat({
    id: `bench-${routes}`,
    chat: { adapter: scripted },
    conversation: {
      initial: 's',
      states: { s: { on: { go: 's' } } },
      routes: Array.from({ length: routes }, (_, i) => commandRoute({ id: `r${i}`, command: `/cmd${i}`, event: 'go', response: `resp${i}` })),
    },
  })
}

let ids = 0
const msg = (role: 'user' | 'assistant', content: string): Message => ({ id: `m${++ids}`, role, content, status: 'complete', createdAt: new Date(0) })

async function dispatch(session: ChatSession, messages: Message[]): Promise<string> {
  let text = ''
  for await (const chunk of session.chat.adapter.createSource({ messages }).stream()) if (chunk.type === 'text') text += chunk.content
  return text
}

async function history(session: ChatSession, turns: number): Promise<Message[]> {
  const messages: Message[] = []
  for (let i = 0; i < turns; i++) {
    messages.push(msg('user', `/cmd${i % 10}`))
    await dispatch(session, messages)
    messages.push(msg('assistant', `resp${i % 10}`))
  }
  return messages
}

// (a) route scaling: one-message history with a new id each turn, resolving the last route.
const small = createChatSession(definition(10), { lint: false })
const large = createChatSession(definition(10_000), { lint: false })
const routes = await compare(
  () => dispatch(small, [msg('user', '/cmd9')]),
  () => dispatch(large, [msg('user', '/cmd9999')]),
)

// (b) history scaling and (c) replay: each history built by dispatching its turns one by one.
const built: Record<number, { session: ChatSession; messages: Message[]; ms: number }> = {}
for (const size of [10, 10_000]) {
  const session = createChatSession(definition(10), { lint: false })
  const start = performance.now()
  const messages = await history(session, size)
  built[size] = { session, messages, ms: performance.now() - start }
}
// Each fresh turn appends a new user message (new id) to the built history. The request array is
// built once with a slot for it, so the timed region holds the turn, not a 20,000-element copy.
const requests: Record<number, Message[]> = {}
const fresh = (size: number) => () => {
  const request = (requests[size] ??= [...built[size]!.messages, msg('user', '/cmd3')])
  request[request.length - 1] = msg('user', '/cmd3')
  return dispatch(built[size]!.session, request)
}
const replayBase = built[10_000]!
const replayed = [...replayBase.messages.slice(0, -1)]
const historyTable = await compare(fresh(10), fresh(10_000))
const replayTable = await compare(fresh(10_000), () => dispatch(replayBase.session, replayed))
const check = await dispatch(replayBase.session, replayed)
if (check !== 'resp9') throw new Error(`replay returned ${check}`)

const scriptedTurn = async (): Promise<void> => {
  const controller = createChatController({ adapter: scripted })
  await controller.send('hello')
  if (controller.getState().messages[1]?.content !== 'scripted') throw new Error('scripted turn failed')
}

// (d) a deterministic turn: a new controller per turn, awaiting send.
const controllerSession = createChatSession(definition(10), { lint: false })
const e2e = await compare(scriptedTurn, async () => {
  const controller = createChatController(controllerSession.chat)
  await controller.send('/cmd0')
  if (controller.getState().messages[1]?.content !== 'resp0') throw new Error('deterministic turn failed')
})

// (g) the agentic fallthrough (issue 20): a message no route matches, through the same controller,
// reaches the same scripted adapter; against the bare scripted text turn.
const agenticSession = createChatSession(definition(10), { lint: false })
const agentic = await compare(scriptedTurn, async () => {
  const controller = createChatController(agenticSession.chat)
  await controller.send('hello')
  if (controller.getState().messages[1]?.content !== 'scripted') throw new Error('agentic turn failed')
})

// (e) lint and (f) validation of a route table (issue 20): 10,000 routes against 1,000 runs of 10
// routes, so a linear pass is ~1× and the old pairwise lint ~1,000×. Definitions are built once;
// `validateDefinition` is what `defineChat` runs on a new definition.
const lintSmall = definition(10)
const lintLarge = definition(10_000)
const lintTable = await compare(
  async () => {
    for (let i = 0; i < 1000; i++) lintDefinition(lintSmall)
  },
  async () => lintDefinition(lintLarge),
)
const validateTable = await compare(
  async () => {
    for (let i = 0; i < 1000; i++) validateDefinition(lintSmall)
  },
  async () => validateDefinition(lintLarge),
)
// The figure issue 20 quotes: the first session of a new 10,000-route definition, lint on.
const firstSessionStart = performance.now()
createChatSession(definition(10_000))
const firstSessionMs = performance.now() - firstSessionStart

// Memory (issue 20): what a session retains per turn over a 10,000-turn history, with its history
// array, against a plain
// array push of one two-field object per turn (the least a per-turn record can cost), both as heap
// growth after forced collections. Bytecode flushing is off for the measure (a collection that
// drops cold functions' bytecode would shrink the heap under the session), and each figure is the
// median of three builds after a warm-up build, each build kept alive until it is measured.
v8.setFlagsFromString('--no-flush-bytecode')
const heap = (): number => {
  for (let i = 0; i < 4; i++) gc()
  return process.memoryUsage().heapUsed
}
const memoryMessages = Array.from({ length: 10_000 }, (_, i) => [msg('user', `/cmd${i % 10}`), msg('assistant', `resp${i % 10}`)]).flat()
// The retained figure includes the history array the session was last handed (20,000 references,
// 16 B a turn), as the peer's does; the messages themselves are the host's either way.
async function sessionOf10000Turns(): Promise<[ChatSession, Message[]]> {
  const session = createChatSession(definition(10), { lint: false })
  for (let i = 1; i <= 10_000; i++) await dispatch(session, memoryMessages.slice(0, 2 * i - 1))
  const history = memoryMessages.slice()
  session.sync(history)
  return [session, history]
}
async function pushOf10000Turns(): Promise<unknown[]> {
  const pushed: { messageId: string; turn: number }[] = []
  for (let i = 0; i < 10_000; i++) pushed.push({ messageId: memoryMessages[2 * i]!.id, turn: i })
  return pushed
}
async function retainedPerTurn(build: () => Promise<unknown>): Promise<Spread> {
  const kept: unknown[] = [await build()] // the warm-up build: code compiled, caches filled
  const sizes: number[] = []
  for (let run = 0; run < 3; run++) {
    const before = heap()
    kept.push(await build())
    sizes.push((heap() - before) / 10_000)
  }
  if (kept.length !== 4) throw new Error('builds lost')
  return spreadOf(sizes)
}
const perTurnSpread = await retainedPerTurn(sessionOf10000Turns)
const perPushSpread = await retainedPerTurn(pushOf10000Turns)
const perTurn = perTurnSpread.median
const perPush = perPushSpread.median
const memoryRatio = perTurn / perPush

const x = (c: Comparison): string => ratioText(c)
const us = (value: number): string => `${value.toFixed(2)} µs`
const lines = [
  'conversation core (CPU µs per turn, medians; ratios are medians of 41 interleaved ABBA pairs, (min–max) beside them):',
  `  (a) last of 10 routes ${us(routes.base)} · last of 10,000 ${us(routes.subject)} → ${x(routes)} (target ≤ 1.5×, peer 352×)`,
  `  (b) turn at history 10 ${us(historyTable.base)} · at 10,000 ${us(historyTable.subject)} → ${x(historyTable)} (target ≤ 2×, peer 818×); building 10,000 turns took ${built[10_000]!.ms.toFixed(0)} ms (peer ~98 s)`,
  `  (c) fresh turn ${us(replayTable.base)} · replay ${us(replayTable.subject)} at history 10,000 → ${x(replayTable)} (target ≤ 0.5×, peer 1.01×)`,
  `  (d) controller scripted text turn ${us(e2e.base)} · deterministic turn ${us(e2e.subject)} → ${x(e2e)} (target ≤ 1.2×, peer 1.51–1.62×)`,
  `  (g) controller scripted text turn ${us(agentic.base)} · agentic fallthrough (no route matches) ${us(agentic.subject)} → ${x(agentic)} (target ≤ 1.15×; peer 6.4–7.9 µs a turn)`,
  `  (e) lint of 10,000 routes ${(lintTable.subject / 1000).toFixed(1)} ms → ${x(lintTable)} of 1,000 lints of 10 routes (target < 200 ms; linear ≈ 1×, the pairwise lint was 18–26 s)`,
  `  (f) validation of 10,000 routes ${(validateTable.subject / 1000).toFixed(1)} ms → ${x(validateTable)} of 1,000 validations of 10 routes (target < 10 ms)`,
  `      first createChatSession of a new 10,000-route definition, lint on: ${firstSessionMs.toFixed(0)} ms (defineChat, compile, lint)`,
  `  memory: session ${perTurn.toFixed(0)} B (${perTurnSpread.min.toFixed(0)}–${perTurnSpread.max.toFixed(0)}) per turn over 10,000 turns → ${memoryRatio.toFixed(2)}× a plain array push (${perPush.toFixed(0)} B (${perPushSpread.min.toFixed(0)}–${perPushSpread.max.toFixed(0)}) per turn) (medians of 3 builds (min–max); target ≤ 140 B, peer 145–149 B)`,
]
console.log(lines.join('\n'))

describe('conversation core', () => {
  bench(`(a) last of 10,000 command routes [${x(routes)} of last of 10]`, async () => {
    await dispatch(large, [msg('user', '/cmd9999')])
  }, { time: 200 })
  bench(`(b) turn at history 10,000 [${x(historyTable)} of history 10]`, async () => {
    await fresh(10_000)()
  }, { time: 200 })
  bench(`(c) replay at history 10,000 [${x(replayTable)} of a fresh turn]`, async () => {
    await dispatch(replayBase.session, replayed)
  }, { time: 200 })
  bench(`(d) deterministic controller turn [${x(e2e)} of a scripted text turn]`, async () => {
    const controller = createChatController(controllerSession.chat)
    await controller.send('/cmd0')
  }, { time: 200 })
  bench(`(g) agentic fallthrough through the controller [${x(agentic)} of a scripted text turn]`, async () => {
    const controller = createChatController(agenticSession.chat)
    await controller.send('hello')
  }, { time: 200 })
  bench(`(e) lint of 10,000 routes [${x(lintTable)} of 1,000 lints of 10]`, () => {
    lintDefinition(lintLarge)
  }, { time: 200 })
  bench(`(f) validation of 10,000 routes [${x(validateTable)} of 1,000 validations of 10]`, () => {
    validateDefinition(lintLarge)
  }, { time: 200 })
})
