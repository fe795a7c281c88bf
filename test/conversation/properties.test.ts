import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { createChatController } from '../../src/controller/index.js'
import {
  commandRoute,
  createChatSession,
  defineChat,
  eventRoute,
  patternRoute,
  sendUiEvent,
  TRANSITION_TOOL,
  type ChatDefinition,
  type ChatSession,
  type SessionSnapshot,
} from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// Properties over random conversations driven through a real controller: sends that match or
// not, UI events, retry, regenerate, edit (with and without regenerate), setMessages truncation,
// clear, and stops (before the source exists, and in the middle of a slow route).

const SECRET = 'SECRET-7f3a9c'

type Op =
  | { t: 'send'; text: string }
  | { t: 'event'; event: string }
  | { t: 'retry' }
  | { t: 'regenerate' }
  | { t: 'edit'; index: number; text: string; regenerate: boolean }
  | { t: 'truncate'; keep: number }
  | { t: 'sendStop'; text: string }
  | { t: 'slowStop' }
  | { t: 'clear' }

const texts = ['/start', '/cancel', '/slow', '/boom', `#1234 ${SECRET}`, '#98765', `hello ${SECRET}`, `escalate ${SECRET}`, `nonsense ${SECRET}`]
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...texts).map((text) => ({ t: 'send' as const, text })) },
  { weight: 2, arbitrary: fc.constantFrom('confirm', 'cancel').map((event) => ({ t: 'event' as const, event })) },
  { weight: 2, arbitrary: fc.constant({ t: 'retry' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'regenerate' as const }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('edit' as const), index: fc.nat(20), text: fc.constantFrom(...texts), regenerate: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('truncate' as const), keep: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.constantFrom(...texts).map((text) => ({ t: 'sendStop' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ t: 'slowStop' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'clear' as const }) },
)

interface World {
  definition: ChatDefinition
  routeCalls: () => number
  hold: () => { entered: Promise<void>; release: () => void }
  model: ReturnType<typeof scriptedAdapter>
}

function world(): World {
  let calls = 0
  let held: { entered: () => void; gate: Promise<void> } | undefined
  const counted = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A): R => {
    calls++
    return fn(...args)
  }
  // Asked to escalate, the agent proposes the first legal event it was offered (agent transitions).
  const model = scriptedAdapter([
    (request) => {
      const last = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''
      const chunks: StreamChunk[] = [{ type: 'text', content: `agent echoes ${last}` }]
      const offered = (request.context?.metadata?.chatrail as { events?: string[] } | undefined)?.events ?? []
      const event = offered.find((e) => e !== 'slow')
      if (last.startsWith('escalate') && event) chunks.push({ type: 'tool_call', toolCall: { id: 'p', name: TRANSITION_TOOL, args: JSON.stringify({ event }) } })
      return [...chunks, { type: 'done' }]
    },
  ])
  const definition = defineChat({
    id: 'prop',
    chat: { adapter: model },
    conversation: {
      initial: 'idle',
      context: {},
      agentTransitions: true,
      states: {
        idle: { on: { start: 'collecting', slow: 'idle', boom: 'idle' } },
        collecting: { on: { order: 'confirming', cancel: 'idle', slow: 'collecting', boom: 'idle' } },
        confirming: { on: { confirm: { target: 'done', guard: ({ context }) => typeof context.order === 'string' }, cancel: 'idle', order: 'confirming' } },
        done: { final: true, on: { start: 'collecting' } },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: counted(() => 'Order number?') }),
        patternRoute({ id: 'order', pattern: /^#(?<order>\d{4,})/, event: 'order', assign: true, response: counted((_i: string, ctx: { match?: { groups: Record<string, string> } }) => `Confirm ${ctx.match?.groups.order}?`) }),
        eventRoute({ id: 'confirm', uiEvent: 'confirm', event: 'confirm', response: counted(() => 'Confirmed.') }),
        eventRoute({ id: 'cancel-button', uiEvent: 'cancel', event: 'cancel', response: counted(() => 'Cancelled.') }),
        commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: counted(() => ({ text: 'Cancelled.', assign: { order: null } })) }),
        commandRoute({
          id: 'slow',
          command: '/slow',
          event: 'slow',
          response: counted(async () => {
            const h = held
            if (h) {
              h.entered()
              await h.gate
            }
            return 'slow answer'
          }),
        }),
        commandRoute({ id: 'boom', command: '/boom', event: 'boom', response: counted(() => { throw new Error(`boom ${SECRET}`) }) }),
      ],
    },
  })
  return {
    definition,
    model,
    routeCalls: () => calls,
    hold() {
      let entered!: () => void
      let release!: () => void
      const enteredP = new Promise<void>((resolve) => (entered = resolve))
      const gate = new Promise<void>((resolve) => (release = resolve))
      held = { entered, gate }
      return {
        entered: enteredP,
        release: () => {
          held = undefined
          release()
        },
      }
    },
  }
}

/** A real controller over the session; it keeps each `done` record on its answer (metadata.chatrail). */
function drive(_w: World, session: ChatSession) {
  let n = 0
  const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const annotated = (): Message[] => controller.getState().messages
  return { controller, annotated }
}

async function apply(w: World, controller: ReturnType<typeof createChatController>, op: Op): Promise<void> {
  const messages = controller.getState().messages
  const users = messages.filter((m) => m.role === 'user')
  switch (op.t) {
    case 'send':
      return controller.send(op.text)
    case 'event':
      return sendUiEvent(controller, op.event, `Button ${op.event}`)
    case 'retry':
      return controller.retry()
    case 'regenerate':
      return messages.at(-1)?.role === 'assistant' ? controller.regenerate() : undefined
    case 'edit': {
      const target = users[op.index % Math.max(users.length, 1)]
      return target ? controller.edit(target.id, op.text, { regenerate: op.regenerate }) : undefined
    }
    case 'truncate':
      controller.setMessages(messages.slice(0, op.keep % (messages.length + 1)))
      return
    case 'sendStop': {
      const sending = controller.send(op.text)
      controller.stop()
      return sending
    }
    case 'slowStop': {
      const hold = w.hold()
      const sending = controller.send('/slow')
      const entered = await Promise.race([hold.entered.then(() => true), sending.then(() => false)])
      controller.stop()
      hold.release()
      await sending
      if (!entered) return
      return
    }
    case 'clear':
      return controller.clear()
  }
}

const view = (s: SessionSnapshot) => ({ state: s.state, context: s.context, events: s.events, actions: s.actions, final: s.final })

describe('conversation properties', () => {
  it('(1) the live snapshot equals a fresh session synced to the final history; (2) replays call neither model nor route; (4) traces never hold user text', async () => {
    // How often each interesting path ran, so the properties are known not to hold vacuously.
    const seen = { replayed: 0, aborted: 0, agentCommits: 0, errors: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const w = world()
        const session = createChatSession(w.definition, { lint: false })
        const { controller, annotated } = drive(w, session)
        for (const op of ops) {
          const traceCount = session.traces().length
          const modelCalls = w.model.calls.length
          const routeCalls = w.routeCalls()
          await apply(w, controller, op)
          const added = session.traces().slice(traceCount)
          if (added.length > 0 && added.every((t) => t.replayed)) {
            seen.replayed++
            expect(w.model.calls.length).toBe(modelCalls)
            expect(w.routeCalls()).toBe(routeCalls)
          }
          seen.aborted += added.filter((t) => t.outcome === 'aborted').length
          seen.errors += added.filter((t) => t.outcome === 'error').length
          seen.agentCommits += added.filter((t) => t.kind === 'agentic' && t.event !== undefined).length
          const fresh = createChatSession(w.definition, { lint: false })
          fresh.sync(annotated())
          expect(view(session.getSnapshot())).toEqual(view(fresh.getSnapshot()))
        }
        expect(JSON.stringify(session.traces())).not.toContain(SECRET)
        expect(JSON.stringify(session.traces())).not.toContain('agent echoes')
      }),
      { numRuns: 120 },
    )
    expect(seen.replayed).toBeGreaterThan(0)
    expect(seen.aborted).toBeGreaterThan(0)
    expect(seen.agentCommits).toBeGreaterThan(0)
    expect(seen.errors).toBeGreaterThan(0)
  })

  it('(3) two sessions of one definition never share state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), opArb), { minLength: 1, maxLength: 12 }), async (steps) => {
        const w = world()
        const a = createChatSession(w.definition, { lint: false })
        const b = createChatSession(w.definition, { lint: false })
        const idle = createChatSession(w.definition, { lint: false })
        const initial = idle.getSnapshot()
        const da = drive(w, a)
        const db = drive(w, b)
        for (const [onA, op] of steps) {
          await apply(w, onA ? da.controller : db.controller, op)
          for (const [session, driver] of [[a, da], [b, db]] as const) {
            const fresh = createChatSession(w.definition, { lint: false })
            fresh.sync(driver.annotated())
            expect(view(session.getSnapshot())).toEqual(view(fresh.getSnapshot()))
          }
        }
        expect(idle.getSnapshot()).toBe(initial)
        expect(idle.traces()).toHaveLength(0)
        expect(new Set([...a.traces(), ...b.traces()].map((t) => t.sessionId)).size).toBeLessThanOrEqual(2)
        for (const t of a.traces()) expect(t.sessionId).toBe(a.sessionId)
      }),
      { numRuns: 60 },
    )
  })
})
