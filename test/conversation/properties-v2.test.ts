import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createChatController } from '../../src/controller/index.js'
import {
  commandRoute,
  createChatSession,
  defineChat,
  eventRoute,
  route,
  sendUiEvent,
  textRoute,
  type ChatDefinition,
  type SessionSnapshot,
} from '../../src/index.js'

// Issue 19 "Done when": replay and fresh-session rebuild stay equal to live state with
// conversation-level transitions, reply-only routes, forms, refusals, restarts, stale UI events
// and route timeouts in the mix, driven through a real controller with retry, regenerate, edits,
// truncation and clear.

const SECRET = 'SECRET-19c'

type Op =
  | { t: 'send'; text: string }
  | { t: 'event'; event: string }
  | { t: 'retry' }
  | { t: 'regenerate' }
  | { t: 'edit'; index: number; text: string }
  | { t: 'truncate'; keep: number }
  | { t: 'clear' }

// '/start' and '1234' twice: the form path needs both in a row often enough.
const texts = ['/start', '/start', '/help', '/cancel', '1234', '1234', `12 ${SECRET}`, 'AB1 2CD', 'yes', 'lookup', 'hang', `what ${SECRET}`, '/human']
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...texts).map((text) => ({ t: 'send' as const, text })) },
  { weight: 2, arbitrary: fc.constantFrom('confirm', 'start-over', 'express').map((event) => ({ t: 'event' as const, event })) },
  { weight: 1, arbitrary: fc.constant({ t: 'retry' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'regenerate' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('edit' as const), index: fc.nat(20), text: fc.constantFrom(...texts) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('truncate' as const), keep: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'clear' as const }) },
)

/** One run through every path the property counts: unavailable, timeout, replay, form, refusal, exhaustion, restart. */
const EVERY_PATH: Op[] = [
  { t: 'event', event: 'express' },
  { t: 'send', text: 'hang' },
  { t: 'send', text: '/start' },
  { t: 'retry' },
  { t: 'send', text: '1234' },
  { t: 'send', text: '/cancel' },
  { t: 'send', text: '/start' },
  { t: 'send', text: 'AB1 2CD' },
  { t: 'send', text: 'AB1 2CD' },
  { t: 'send', text: '/start' },
]

type Ctx = { digits?: string; postcode?: string; delivery?: string; tracking?: string; formAttempts?: number }

let calls = 0
const counted = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A): R => {
  calls++
  return fn(...args)
}

function definition(): ChatDefinition<Ctx> {
  return defineChat<Ctx>({
    id: 'props-v2',
    chat: {},
    conversation: {
      initial: 'greeting',
      context: {},
      routeTimeoutMs: 15,
      on: { cancel: 'greeting', escalate: 'human' },
      states: {
        greeting: { on: { start: 'identify' } },
        identify: {
          on: { identified: 'confirming', stuck: 'human' },
          form: {
            slots: {
              digits: { prompt: 'Last 4 digits?', validate: z.string().regex(/^\d{4}$/), maxAttempts: 2 },
              postcode: { prompt: 'Postcode?', validate: counted((input: string) => (/^[A-Z0-9 ]{3,8}$/.test(input) ? input : undefined)) },
            },
            done: 'identified',
            response: 'Is the address right?',
            exhausted: 'stuck',
            exhaustedResponse: 'A person will help.',
          },
        },
        confirming: { on: { confirm: { target: 'delivery', guard: ({ context }) => context.postcode !== undefined && context.digits !== '0000' } } },
        delivery: { on: { chosen: 'lookup' } },
        lookup: { on: { found: 'resolved' } },
        human: { ignoreGlobal: ['escalate'] },
        resolved: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Let us replace your card.' }),
        commandRoute({ id: 'help', command: '/help', response: counted((_input: string, ctx: { state: string }) => `Step ${ctx.state}.`) }),
        route({ id: 'status', match: async (input) => input === 'hang', response: () => new Promise<string>(() => {}) }),
        commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: { text: 'Cancelled.', assign: { digits: undefined, postcode: undefined, delivery: undefined } } }),
        commandRoute({ id: 'human', command: '/human', event: 'escalate', response: 'Handing over.' }),
        textRoute({ id: 'yes', text: 'yes', event: 'confirm', refuse: 'Not yet.', response: 'Choose delivery.' }),
        eventRoute({ id: 'confirm', uiEvent: 'confirm', event: 'confirm', refuse: 'Not yet.', response: 'Choose delivery.' }),
        eventRoute({ id: 'express', uiEvent: 'express', event: 'chosen', response: { text: 'Express it is. Type lookup.', assign: { delivery: 'express' } } }),
        route({
          id: 'lookup',
          match: async (input) => input === 'lookup',
          event: 'found',
          response: counted(() => Promise.resolve({ text: 'Found it.', assign: { tracking: 'T1' } })),
        }),
        commandRoute({ id: 'restart', command: '/start', restart: true, states: ['resolved', 'human'], response: 'Starting over.' }),
        eventRoute({ id: 'start-over', uiEvent: 'start-over', restart: true, states: ['resolved', 'human'], response: 'Starting over.' }),
      ],
      fallback: { response: 'Sorry?' },
    },
  })
}

const view = (s: SessionSnapshot<Ctx>) => ({ state: s.state, context: s.context, events: s.events, final: s.final, restart: s.restart })

describe('conversation properties with modeling v2', () => {
  it('live state = fresh rebuild after every operation; replays call no route; traces hold no user text', async () => {
    const def = definition()
    const seen = { refused: 0, unavailable: 0, timeout: 0, restart: 0, form: 0, replayed: 0, exhausted: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const session = createChatSession(def, { lint: false })
        let n = 0
        const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
        controller.subscribe(() => session.sync(controller.getState().messages))
        for (const op of ops) {
          const before = session.traces().length
          const callsBefore = calls
          const messages = controller.getState().messages
          const users = messages.filter((m) => m.role === 'user')
          if (op.t === 'send') await controller.send(op.text)
          else if (op.t === 'event') await sendUiEvent(controller, op.event, `Button ${op.event}`)
          else if (op.t === 'retry') await controller.retry()
          else if (op.t === 'regenerate') {
            if (messages.at(-1)?.role === 'assistant') await controller.regenerate()
          } else if (op.t === 'edit') {
            const target = users[op.index % Math.max(users.length, 1)]
            if (target) await controller.edit(target.id, op.text, { regenerate: true })
          } else if (op.t === 'truncate') controller.setMessages(messages.slice(0, op.keep % (messages.length + 1)))
          else await controller.clear()
          for (const trace of session.traces().slice(before)) {
            if (trace.outcome === 'refused') seen.refused++
            if (trace.outcome === 'unavailable') seen.unavailable++
            if (trace.outcome === 'timeout') seen.timeout++
            if (trace.reason === 'restart') seen.restart++
            if (trace.reason === 'slot-filled' || trace.reason === 'form-complete') seen.form++
            if (trace.reason === 'form-exhausted') seen.exhausted++
            if (trace.replayed) seen.replayed++
          }
          const added = session.traces().slice(before)
          if (added.length > 0 && added.every((trace) => trace.replayed)) expect(calls).toBe(callsBefore)
          const fresh = createChatSession(def, { lint: false })
          fresh.sync(controller.getState().messages)
          expect(view(fresh.getSnapshot())).toEqual(view(session.getSnapshot()))
        }
        expect(JSON.stringify(session.traces())).not.toContain(SECRET)
      }),
      // The random runs reach every path nearly always; this example reaches each for certain, so
      // the coverage check below cannot fail on an unlucky seed (it did, once in about ten CI runs).
      { numRuns: 100, examples: [[EVERY_PATH]] },
    )
    // Each new path ran, so the property does not hold vacuously.
    for (const [path, count] of Object.entries(seen)) expect({ path, ran: count > 0 }).toEqual({ path, ran: true })
  }, 120_000)
})
