import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { compileMachine } from '../../src/conversation/machine.js'
import { createChatSession } from '../../src/conversation/session.js'
import { uiEventMessageMetadata } from '../../src/conversation/ui-events.js'
import { walkConversation } from '../../src/devtools/turn-walk.js'
import { rederive } from '../../src/store/index.js'
import { apiChat } from './api/api-chat.js'

// The devtools say which state each turn left the conversation in without running a session:
// the walk over the stored records must agree with what a session resuming the same history
// reaches (state and context), after every turn, whatever mix of inputs built the history —
// including an edited user message whose record no longer fits its text.

const inputs = ['hi', '/start', '/help', '/cancel', '12', '4821', 'sw1a 1aa', 'nope', 'yes', 'no', 'order', 'hlep', 'old menu', 'crash', 'what?']
const events = ['express', 'standard', 'resolve', 'start-over']
const machine = compileMachine(apiChat.conversation)

const input: fc.Arbitrary<{ text: string; uiEvent?: string }> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...inputs).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.constantFrom(...events).map((uiEvent) => ({ text: uiEvent, uiEvent })) },
)

function sessionAt(messages: readonly Message[]): { state: string; context: unknown } {
  const session = createChatSession(apiChat, { sessionId: 'check', lint: false })
  session.sync(messages, { trusted: true })
  const { state, context } = session.getSnapshot()
  session.dispose()
  return { state, context }
}

describe('walkConversation', () => {
  it('reaches the state and context a resumed session reaches, after every turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(input, { minLength: 1, maxLength: 12 }), fc.option(fc.nat(11)), async (steps, edited) => {
        const users: Message[] = steps.map((step, i) => ({ id: `u${i}`, role: 'user', content: step.text, status: 'complete', createdAt: new Date(i * 1000), ...(step.uiEvent === undefined ? {} : { metadata: uiEventMessageMetadata(step.uiEvent) }) }))
        const { messages } = await rederive(apiChat, users, 'walk')
        // an edit after the fact: the stored record stays, the text changes (a session then ignores the record)
        const history = edited === null || edited >= steps.length ? messages : messages.map((message) => (message.id === `u${edited}` ? { ...message, content: `${message.content}!` } : message))
        const walked = walkConversation(machine, history)
        expect(walked.turns).toHaveLength(steps.length)
        for (const [k, turn] of walked.turns.entries()) {
          // an agentic turn has no answer here (rederive keeps stored answers, and there are none): it ends at its user message
          const end = history.findIndex((message) => message.id === (turn.answerIds.at(-1) ?? turn.userMessageId))
          const expected = sessionAt(history.slice(0, end + 1))
          expect(turn.toState).toBe(expected.state)
          expect(walked.before[k + 1]?.context ?? walked.context).toEqual(expected.context)
        }
        expect({ state: walked.state, context: walked.context }).toEqual(sessionAt(history))
      }),
      { numRuns: 60 },
    )
  })
})
