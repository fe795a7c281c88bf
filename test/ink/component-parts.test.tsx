import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { commandRoute, defineChat, eventRoute } from '../../src/index.js'
import { defineComponents, standardCatalog } from '../../src/components/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { InkChat } from '../../renderers/ink/ink-chat.js'
import { ComponentPicker } from '../../renderers/ink/component-picker.js'
import { pendingComponentOf } from '../../src/view/pending-component.js'
import type { Message } from '../../src/contract/message.js'
import { frameText, waitForFrame } from './frames.js'
import { keys } from './keys.js'

afterEach(() => cleanup())

const components = defineComponents(standardCatalog)

function lostCard(adapter = scriptedAdapter(['agent'])) {
  return defineChat({
    id: 'ink-components',
    chat: { adapter },
    components,
    conversation: {
      initial: 'idle',
      states: { idle: {} },
      routes: [
        commandRoute({
          id: 'lost',
          command: '/lost',
          response: () => [
            'Your orders:',
            components.render('table', { caption: 'Orders', columns: [{ key: 'id', label: 'Order' }, { key: 'total', label: 'Total' }], rows: [{ id: '12345', total: 40 }, { id: 'A|B', total: 7 }] }),
            components.render('choice-list', { prompt: 'What should happen now?', choices: [{ id: 'reship', label: 'Reship', description: 'free, 3 days' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'next' }),
          ],
        }),
        eventRoute({ id: 'refund', uiEvent: 'refund', response: 'Refund on its way.' }),
        eventRoute({ id: 'reship', uiEvent: 'reship', response: 'Reshipping.' }),
      ],
      fallback: { response: 'Say /lost.' },
    },
  })
}

async function press(rendered: ReturnType<typeof render>, ...sequence: string[]) {
  for (const bytes of sequence) {
    rendered.stdin.write(bytes)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

describe('component parts in <InkChat>', () => {
  it('a table is laid out as a table, a choice list as its summary and a picker; the choice is one interaction', async () => {
    const adapter = scriptedAdapter(['unused'])
    const r = render(<InkChat definition={lostCard(adapter)} />)
    await press(r, '/lost', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('Enter choose'))
    expect(frame).toContain('Orders')
    // the terminal markdown's table: columns padded to a shared width, a rule under the header; a pipe in a cell stays a character
    expect(frame).toContain('Order │ Total\n──────┼──────\n12345 │ 40\nA|B   │ 7')
    expect(frame).toContain('What should happen now?: Reship (free, 3 days); Refund')
    expect(frame).toContain('› 1. Reship — free, 3 days')
    expect(frame).toContain('  2. Refund')
    await press(r, keys.down, keys.enter)
    const after = await waitForFrame(r, (f) => f.includes('Refund on its way.'))
    expect(after).toContain('you\nRefund')
    // answered: no picker comes back, and the agent was never asked
    expect(after).not.toContain('Enter choose')
    expect(adapter.calls).toHaveLength(0)
  })

  it('Esc closes the picker (the composer takes keys again), Tab reopens it, a digit picks', async () => {
    const r = render(<InkChat definition={lostCard()} />)
    await press(r, '/lost', keys.enter)
    await waitForFrame(r, (f) => f.includes('Enter choose'))
    await press(r, keys.escape)
    await waitForFrame(r, (f) => !f.includes('Enter choose'))
    await press(r, keys.tab)
    await waitForFrame(r, (f) => f.includes('Enter choose'))
    await press(r, '1')
    expect(await waitForFrame(r, (f) => f.includes('Reshipping.'))).toContain('you\nReship')
  })
})

describe('pendingComponentOf', () => {
  const part = components.render('button-group', { buttons: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B', disabled: true }] }, { instanceId: 'g' })
  const answer: Message = { id: 'm1', role: 'assistant', status: 'complete', createdAt: new Date(0), content: part.fallback.summary, parts: [part] }

  it('offers the last answer\'s enabled buttons, and nothing once answered or when the chat moved on', () => {
    expect(pendingComponentOf([answer], components)?.choices).toEqual([{ value: 'a', label: 'A' }])
    const pressed: Message = { id: 'u2', role: 'user', status: 'complete', createdAt: new Date(1), content: 'A', metadata: { chatrail: { event: 'a', interaction: { messageId: 'm1', instanceId: 'g', componentKey: 'button-group', event: 'press', value: 'a' } } } }
    expect(pendingComponentOf([answer, pressed], components)).toBeUndefined()
    expect(pendingComponentOf([answer, { ...pressed, id: 'u3', metadata: {} }], components)).toBeUndefined()
  })

  it('a part the registry refuses (tampered props) gets no picker', () => {
    const tampered: Message = { ...answer, parts: [{ ...part, props: { buttons: [] } }] }
    expect(pendingComponentOf([tampered], components)).toBeUndefined()
  })
})

describe('<ComponentPicker> alone', () => {
  it('chooses once with Enter', async () => {
    const chosen: string[] = []
    const part = components.render('choice-list', { choices: [{ id: 'x', label: 'X' }, { id: 'y', label: 'Y' }] })
    const pending = pendingComponentOf([{ id: 'm', role: 'assistant', status: 'complete', createdAt: new Date(0), content: '', parts: [part] }], components)
    if (pending === undefined) throw new Error('no pending component')
    const r = render(<ComponentPicker pending={pending} onChoose={(choice) => chosen.push(choice.value)} onDismiss={() => undefined} />)
    expect(frameText(r)).toContain('Choose one')
    await press(r, keys.down, keys.enter, keys.enter)
    expect(chosen).toEqual(['y'])
  })
})
