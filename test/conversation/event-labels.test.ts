import { describe, expect, it } from 'vitest'
import { defineChat, eventRoute, isChatrailConfigError } from '../../src/index.js'
import type { ConversationDefinition } from '../../src/index.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { browserDefinitionOf } from '../../renderers/serve-page/browser-definition.js'
import { eventLabelOf } from '../../src/view/event-label.js'
import { humanizeEvent } from '../../src/view/event-routes.js'

/** `conversation.eventLabels` (issue 31 item 12): what event buttons and chips say, from the definition. */
function labelled(eventLabels: Record<string, string>) {
  const conversation: ConversationDefinition = {
    initial: 'open',
    states: { open: { on: { handoff: 'human', resolve: 'done' } }, human: {}, done: { final: true } },
    on: { cancel: 'done' },
    routes: [eventRoute({ id: 'talk', uiEvent: 'talk_to_human', event: 'handoff', response: 'Connecting you.' })],
    fallback: { response: 'Sorry.' },
    eventLabels,
  }
  return () => defineChat({ id: 'labels', chat: {}, conversation })
}

function issuesOf(define: () => unknown): Array<{ code: string; path: readonly PropertyKey[]; hint: string }> {
  try {
    define()
  } catch (error) {
    expect(isChatrailConfigError(error)).toBe(true)
    return (error as { issues: Array<{ code: string; path: readonly PropertyKey[]; hint: string }> }).issues
  }
  throw new Error('defineChat accepted the definition')
}

describe('conversation.eventLabels', () => {
  it('takes UI events and machine events (a state\'s and the conversation-level `on`)', () => {
    const definition = labelled({ talk_to_human: 'Talk to a person', resolve: 'It is solved', cancel: 'Cancel' })()
    expect(definition.conversation.eventLabels).toEqual({ talk_to_human: 'Talk to a person', resolve: 'It is solved', cancel: 'Cancel' })
  })

  it('rejects a name that is no event: a ChatrailConfigError at its path, with a did-you-mean', () => {
    const [issue, ...rest] = issuesOf(labelled({ talk_to_humna: 'Talk to a person' }))
    expect(rest).toEqual([])
    expect(issue).toMatchObject({ code: 'unknown_labelled_event', path: ['conversation', 'eventLabels', 'talk_to_humna'] })
    expect(issue?.hint).toBe('Did you mean "talk_to_human"?')
  })

  it('rejects a label that is not a string at its path', () => {
    const issues = issuesOf(labelled({ resolve: 42 as unknown as string }))
    expect(issues.map((issue) => issue.path)).toEqual([['conversation', 'eventLabels', 'resolve']])
  })

  it('reaches the serve page: the page config carries them and the browser definition has them', () => {
    const definition = labelled({ talk_to_human: 'Talk to a person' })()
    const config = pageConfigOf(definition)
    expect(config.eventLabels).toEqual({ talk_to_human: 'Talk to a person' })
    expect(browserDefinitionOf(JSON.parse(JSON.stringify(config)) as typeof config).conversation.eventLabels).toEqual({ talk_to_human: 'Talk to a person' })
  })
})

describe('eventLabelOf', () => {
  it('the renderer\'s labels first, then the definition\'s, each by UI event then machine event, then the name humanized', () => {
    expect(eventLabelOf('talk_to_human', 'handoff', undefined, undefined, humanizeEvent('talk_to_human'))).toBe('Talk to human')
    expect(eventLabelOf('talk_to_human', 'handoff', undefined, { handoff: 'By event' }, humanizeEvent('talk_to_human'))).toBe('By event')
    expect(eventLabelOf('talk_to_human', 'handoff', undefined, { handoff: 'By event', talk_to_human: 'By UI event' }, humanizeEvent('talk_to_human'))).toBe('By UI event')
    expect(eventLabelOf('talk_to_human', 'handoff', { handoff: 'Own' }, { talk_to_human: 'Definition' }, humanizeEvent('talk_to_human'))).toBe('Own')
    expect(eventLabelOf('restart', undefined, undefined, undefined, 'Start over')).toBe('Start over')
  })
})
