import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { InkChat } from '../../renderers/ink/ink-chat.js'
import { commandRoute, defineChat, eventRoute } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { waitForFrame } from './frames.js'
import { keys } from './keys.js'

afterEach(() => cleanup())

/** A chat whose definition names its event buttons (`conversation.eventLabels`), as an app does for every renderer. */
function labelledChat() {
  return defineChat({
    id: 'ink-event-labels',
    chat: { adapter: scriptedAdapter(['unused']) },
    conversation: {
      initial: 'start',
      states: {
        start: { on: { begin: 'order' } },
        order: { on: { escalate: 'human', done: 'closed' } },
        human: { final: true },
        closed: { final: true },
      },
      eventLabels: { escalate: 'Talk to a person', done: 'All sorted' },
      routes: [
        commandRoute({ id: 'begin', command: '/start', event: 'begin', response: 'What is your order number?' }),
        eventRoute({ id: 'escalate', uiEvent: 'escalate', event: 'escalate', response: 'Connecting you.' }),
        eventRoute({ id: 'done', uiEvent: 'done', event: 'done', response: 'Glad to help.' }),
      ],
    },
  })
}

const press = async (rendered: ReturnType<typeof render>, ...sequence: string[]): Promise<void> => {
  for (const bytes of sequence) {
    rendered.stdin.write(bytes)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

describe('<InkChat> event shortcuts say what every renderer\'s buttons say (chatrail/view eventBarOf)', () => {
  it('labels a key by the definition\'s eventLabels when the app passes none', async () => {
    const r = render(<InkChat definition={labelledChat()} />)
    await press(r, '/start', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('events  Alt+1'))
    expect(frame).toContain('Alt+1 Talk to a person')
    expect(frame).toContain('Alt+2 All sorted')
  })

  it('puts the app\'s own labels first, then the definition\'s', async () => {
    const r = render(<InkChat definition={labelledChat()} eventLabels={{ done: 'Solved' }} />)
    await press(r, '/start', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('events  Alt+1'))
    expect(frame).toContain('Alt+1 Talk to a person')
    expect(frame).toContain('Alt+2 Solved')
  })
})
