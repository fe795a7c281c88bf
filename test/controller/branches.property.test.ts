import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import type { ChatrailController } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/index.js'
import { commandRoute, createChatSession, defineChat, patternRoute } from '../../src/index.js'
import type { ChatSession } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// Any sequence of sends, edits, regenerates and switches (issue #31 item 9): every history ever
// shown stays reachable by switching (as itself or as the start of a later one), the visible history is always user/assistant turns, and the
// session, synced as renderers sync it, is in the state a fresh session replaying that history has.

type Command =
  | { kind: 'send'; text: string }
  | { kind: 'edit'; pick: number; text: string; regenerate: boolean }
  | { kind: 'regenerate'; pick: number }
  | { kind: 'switch'; pick: number; to: number }

const texts = ['/start', '#12345', '/cancel', 'hello']
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('send' as const), text: fc.constantFrom(...texts) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(20), text: fc.constantFrom(...texts), regenerate: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('regenerate' as const), pick: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('switch' as const), pick: fc.nat(20), to: fc.nat(4) }) },
)

const definition = defineChat({
  id: 'branches',
  chat: { adapter: scriptedAdapter([(_request, call) => `agent ${call}`]) },
  conversation: {
    initial: 'idle',
    states: {
      idle: { on: { start: 'collecting' } },
      collecting: { on: { order: 'confirming', cancel: 'idle' } },
      confirming: { on: { cancel: 'idle' } },
    },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Order number?' }),
      patternRoute({ id: 'order', pattern: /^#?(?<order>\d{4,})$/, event: 'order', assign: true, response: 'Confirm?' }),
      commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: 'Cancelled.' }),
    ],
  },
})

const fingerprint = (messages: readonly Message[]): string => messages.map((message) => `${JSON.stringify([message.id, message.role, message.content])}\n`).join('')

function expectTurns(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    expect(message.role).toBe(index % 2 === 0 ? 'user' : 'assistant')
    expect(message.status).toBe('complete')
  })
}

function expectSessionFollows(session: ChatSession, controller: ChatrailController): void {
  const fresh = createChatSession(definition, { sessionId: 'fresh' })
  fresh.sync(controller.getState().messages, { trusted: true })
  const live = session.getSnapshot()
  const replayed = fresh.getSnapshot()
  expect({ state: live.state, context: live.context }).toEqual({ state: replayed.state, context: replayed.context })
  fresh.dispose()
}

/** Every history reachable from the visible one by switching, each one checked on the way (switching back restores it). */
function explore(session: ChatSession, controller: ChatrailController, seen: Set<string>): void {
  const here = fingerprint(controller.getState().messages)
  if (seen.has(here)) return
  seen.add(here)
  expectTurns(controller.getState().messages)
  expectSessionFollows(session, controller)
  const messages = controller.getState().messages
  messages.forEach((message, at) => {
    const { index, count } = controller.branchesOf(message.id)
    for (let other = 0; other < count; other += 1) {
      if (other === index) continue
      expect(controller.switchBranch(message.id, other)).toBe(true)
      explore(session, controller, seen)
      const head = controller.getState().messages[at] as Message
      expect(controller.branchesOf(head.id)).toEqual({ index: other, count })
      expect(controller.switchBranch(head.id, index)).toBe(true)
      expect(fingerprint(controller.getState().messages)).toBe(here)
    }
  })
}

describe('branches (fast-check)', () => {
  it('every version stays reachable, history stays turns, and the session follows the visible branch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), async (commands) => {
        const session = createChatSession(definition, { sessionId: 'live' })
        let n = 0
        const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
        const off = controller.subscribe(() => session.sync(controller.getState().messages))
        const shown = new Set<string>()
        const at = (pick: number, role: Message['role']): Message | undefined => {
          const candidates = controller.getState().messages.filter((message) => message.role === role)
          return candidates.length === 0 ? undefined : candidates[pick % candidates.length]
        }
        for (const step of commands) {
          if (step.kind === 'send') await controller.send(step.text)
          if (step.kind === 'edit') {
            const target = at(step.pick, 'user')
            if (target) await controller.edit(target.id, step.text, { regenerate: step.regenerate })
          }
          if (step.kind === 'regenerate') {
            const target = at(step.pick, 'assistant')
            if (target) await controller.regenerate(target.id)
          }
          if (step.kind === 'switch') {
            const messages = controller.getState().messages
            const target = messages[step.pick % Math.max(1, messages.length)]
            if (target) {
              const { count } = controller.branchesOf(target.id)
              controller.switchBranch(target.id, step.to % count)
            }
          }
          // An edit without regenerate leaves a question unanswered: the next send would not alternate, so answer it.
          if (controller.getState().messages.at(-1)?.role === 'user') await controller.regenerate(undefined).then(async () => {
            const last = controller.getState().messages.at(-1)
            if (last?.role === 'user') await controller.edit(last.id, last.content)
          })
          expectTurns(controller.getState().messages)
          expectSessionFollows(session, controller)
          shown.add(fingerprint(controller.getState().messages))
        }
        const reachable = new Set<string>()
        explore(session, controller, reachable)
        // A send extends history, so an earlier one is reached as the start of a later version.
        for (const history of shown) expect([...reachable].some((candidate) => candidate.startsWith(history))).toBe(true)
        off()
        session.dispose()
      }),
      { numRuns: 60 },
    )
  }, 120_000)
})
