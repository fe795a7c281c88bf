import { describe, expectTypeOf, it } from 'vitest'
import { defineChat, eventRoute } from '../../src/index.js'

/**
 * `conversation.eventLabels` (issue 31 item 12) is keyed by the definition's own names: a misspelt
 * event or UI event is a compile error where `defineChat` inferred them (and a ChatrailConfigError
 * at run time, test/conversation/event-labels.test.ts).
 */

const routes = [eventRoute({ id: 'talk', uiEvent: 'talk_to_human', event: 'handoff', response: 'Connecting you.' })]

describe('conversation.eventLabels types', () => {
  it('takes the inferred UI events and events, and nothing else', () => {
    const definition = defineChat({
      id: 'labels',
      chat: {},
      conversation: {
        initial: 'open',
        states: { open: { on: { handoff: 'human' } }, human: {} },
        routes,
        fallback: { response: 'Sorry.' },
        eventLabels: { talk_to_human: 'Talk to a person', handoff: 'Hand off' },
      },
    })
    expectTypeOf(definition.conversation.eventLabels?.talk_to_human).toEqualTypeOf<string | undefined>()
    defineChat({
      id: 'typo',
      chat: {},
      conversation: {
        initial: 'open',
        states: { open: { on: { handoff: 'human' } }, human: {} },
        routes,
        fallback: { response: 'Sorry.' },
        // @ts-expect-error: "talk_to_humna" is no event or UI event of this definition
        eventLabels: { talk_to_humna: 'Talk to a person' },
      },
    })
  })
})
