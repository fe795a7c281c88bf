import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatController } from '../../src/controller/index.js'
import { commandRoute, createChatSession, defineChat, textRoute } from '../../src/index.js'

/**
 * Issue 27 item 3: retry and regenerate of a stored turn after a resume (a new session and
 * controller handed the stored history). Seed 004 and invariant 3: a replay of an already-decided
 * user message calls neither the model nor the route callback. A resumed session has the decision
 * record (on the answer's metadata) and the answer's text (the answer itself), which is the cache:
 * the route's `response` must not run again.
 */

function counted() {
  const calls = { response: 0, refuse: 0 }
  const definition = defineChat({
    id: 'resume',
    chat: {},
    conversation: {
      initial: 'idle',
      context: {},
      states: { idle: { on: { start: 'asking' } }, asking: { on: { confirm: 'done' } }, done: {} },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: () => `Started (call ${++calls.response}).` }),
        textRoute({ id: 'confirm', text: 'yes', event: 'confirm', guard: () => false, refuse: () => `Not yet (call ${++calls.refuse}).`, response: 'Done.' }),
      ],
      fallback: { response: 'Sorry?' },
    },
  })
  return { definition, calls }
}

/** A live conversation's stored history: what a store or `ChatMemory` hands a resumed session. */
async function stored(texts: string[]): Promise<Message[]> {
  const { definition } = counted()
  const session = createChatSession(definition, { lint: false })
  const controller = createChatController(session.chat)
  for (const text of texts) await controller.send(text)
  return structuredClone(controller.getState().messages)
}

async function resumed(history: Message[], options: { recordKey?: string } = {}) {
  const { definition, calls } = counted()
  const session = createChatSession(definition, { lint: false, ...options })
  const controller = createChatController(session.chat)
  controller.setMessages(history)
  session.sync(controller.getState().messages, { trusted: true })
  return { session, controller, calls }
}

const last = (messages: readonly Message[]): string | undefined => messages.at(-1)?.content

describe('retry and regenerate after a resume', () => {
  it('retry replays the stored answer: no route response, the same text, a replayed trace', async () => {
    const history = await stored(['/start'])
    const { session, controller, calls } = await resumed(history)
    expect(session.getSnapshot().state).toBe('asking')
    await controller.retry()
    expect(calls.response).toBe(0)
    expect(last(controller.getState().messages)).toBe('Started (call 1).')
    expect(session.traces().at(-1)).toMatchObject({ kind: 'deterministic', routeId: 'start', event: 'start', fromState: 'idle', toState: 'asking', outcome: 'ok', replayed: true })
    expect(session.getSnapshot().state).toBe('asking')
  })

  it('regenerate of an earlier stored turn replays it too; a new message after it is decided afresh', async () => {
    const history = await stored(['/start', 'yes'])
    const { session, controller, calls } = await resumed(history)
    const answer = controller.getState().messages[1] as Message
    await controller.regenerate(answer.id)
    expect(calls).toEqual({ response: 0, refuse: 0 })
    expect(last(controller.getState().messages)).toBe('Started (call 1).')
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'start', replayed: true, toState: 'asking' })
    await controller.send('/start')
    expect(calls.response).toBe(0) // "/start" is not declared in "asking": the fallback answers
    await controller.send('yes')
    expect(calls.refuse).toBe(1)
  })

  it('a replayed re-prompt keeps its outcome and reason (the record carries them)', async () => {
    const history = await stored(['/start', 'yes'])
    const { session, controller, calls } = await resumed(history)
    await controller.retry()
    expect(calls.refuse).toBe(0)
    expect(last(controller.getState().messages)).toBe('Not yet (call 1).')
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'confirm', outcome: 'refused', reason: 'guard-refused', replayed: true })
  })

  it('with a recordKey the stored text is not signed: the route runs again (the state still comes from the signed record)', async () => {
    const key = 'a-secret-of-at-least-16-bytes'
    const { definition } = counted()
    const live = createChatSession(definition, { lint: false, recordKey: key })
    const liveController = createChatController(live.chat)
    await liveController.send('/start')
    const { session, controller, calls } = await resumed(structuredClone(liveController.getState().messages), { recordKey: key })
    expect(session.getSnapshot().state).toBe('asking')
    await controller.retry()
    expect(calls.response).toBe(1)
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'start', replayed: false, toState: 'asking' })
  })
})
