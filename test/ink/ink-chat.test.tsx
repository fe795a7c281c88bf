import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import type { AgentRunStateSource } from '../../src/contract/live-agent-adapter.js'
import type { AgentSnapshot } from '../../src/contract/agent-snapshot.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { InkChat } from '../../renderers/ink/ink-chat.js'
import { orderChat } from './chat-fixture.js'
import { deliveryChat } from './delivery-fixture.js'
import { frameText, waitForFrame } from './frames.js'
import { keys } from './keys.js'

afterEach(() => cleanup())

type Rendered = ReturnType<typeof render>

async function press(rendered: Rendered, ...sequence: string[]) {
  for (const bytes of sequence) {
    rendered.stdin.write(bytes)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

const count = (text: string, part: string) => text.split(part).length - 1

describe('<InkChat> driven through stdin', () => {
  it('answers a command deterministically, shows the state change, and numbers the new events', async () => {
    const adapter = scriptedAdapter(['agent reply'])
    const r = render(<InkChat definition={orderChat(adapter)} backend="scripted" />)
    expect(frameText(r)).toContain('state start · last turn none · agent scripted')
    await press(r, '/start', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('state order'))
    expect(frame).toContain('you\n/start')
    expect(frame).toContain('bot · deterministic · begin\nHi! What is your order number?')
    expect(frame).toContain('last turn deterministic (begin)')
    // `found` has no UI event route (an order number is typed), so only `escalate` gets a key.
    expect(frame).toContain('events  Alt+1 Escalate\n')
    expect(adapter.calls).toHaveLength(0)
  })

  it('types digits as text (an order number), and sends unmatched text to the agent', async () => {
    const adapter = scriptedAdapter(['Your parcel is on its way.'])
    const r = render(<InkChat definition={orderChat(adapter)} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('state order'))
    await press(r, '1', '2', '3', '4', keys.enter)
    await waitForFrame(r, (f) => f.includes('state confirm'))
    expect(frameText(r)).toContain('Order 1234. Is that right?')
    await press(r, 'where is it?', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('last turn agentic'))
    expect(frame).toContain('bot · agentic\nYour parcel is on its way.')
    expect(frame).toContain('state confirm')
    expect(adapter.calls).toHaveLength(1)
  })

  it('retries with Ctrl+T and regenerates with Ctrl+G as replays, without calling the agent', async () => {
    const adapter = scriptedAdapter(['unused'])
    const r = render(<InkChat definition={orderChat(adapter)} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('last turn deterministic (begin)'))
    await press(r, keys.ctrlT)
    let frame = await waitForFrame(r, (f) => f.includes('(begin) replayed'))
    expect(frame).toContain('bot · deterministic · begin · replayed\nHi! What is your order number?')
    expect(frame).toContain('state order')
    await press(r, keys.ctrlG)
    frame = await waitForFrame(r, (f) => count(f, 'begin · replayed') === 2)
    expect(count(frame, 'Hi! What is your order number?')).toBe(3)
    expect(adapter.calls).toHaveLength(0)
  })

  it('walks the versions a regenerate kept with Ctrl+← / Ctrl+→ on an empty composer, printing the one switched to (issue #31 item 9)', async () => {
    const adapter = scriptedAdapter(['first answer', 'second answer'])
    const r = render(<InkChat definition={orderChat(adapter)} />)
    await press(r, 'where is my parcel?', keys.enter)
    await waitForFrame(r, (f) => f.includes('first answer'))
    expect(frameText(r)).not.toContain('Ctrl+←→ versions')
    await press(r, keys.ctrlG)
    let frame = await waitForFrame(r, (f) => f.includes('second answer') && f.includes('Ctrl+←→ versions'))
    // typed text: Ctrl+← moves by word, as in a shell, and switches nothing
    await press(r, 'ab cd', keys.ctrlLeft, 'X')
    frame = await waitForFrame(r, (f) => f.includes('ab Xcd'))
    expect(count(frame, 'first answer')).toBe(1)
    await press(r, keys.ctrlU, keys.ctrlK)
    await press(r, keys.ctrlLeft)
    frame = await waitForFrame(r, (f) => f.includes('(version 1/2)'))
    expect(frame).toMatch(/bot \(version 1\/2\)\nfirst answer/)
    expect(count(frame, 'first answer')).toBe(2)
    // at the first version, Ctrl+← does nothing; Ctrl+→ prints the second again
    await press(r, keys.ctrlLeft, keys.ctrlRight)
    frame = await waitForFrame(r, (f) => f.includes('(version 2/2)'))
    expect(count(frame, 'first answer')).toBe(2)
    expect(count(frame, 'second answer')).toBe(2)
    expect(adapter.calls).toHaveLength(2)
  })

  it('edits the last user message with Esc Esc (the first Esc says so) and resends it with Enter', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused']))} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('state order'))
    await press(r, '1234', keys.enter)
    await waitForFrame(r, (f) => f.includes('Order 1234'))
    await press(r, keys.escape)
    await waitForFrame(r, (f) => f.includes('Esc again to edit your last message'))
    await press(r, keys.escape)
    await waitForFrame(r, (f) => f.includes('edit › 1234'))
    await press(r, keys.backspace, keys.backspace, '99', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('Order 1299'))
    expect(frame).toContain('you (edited)\n1299')
    expect(frame).toContain('state confirm')
    expect(frame).toContain('\n›\nEnter send')
  })

  it('cancels an edit with Esc, leaving history untouched', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused']))} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('state order'))
    await press(r, keys.escape, keys.escape)
    await waitForFrame(r, (f) => f.includes('edit › /start'))
    await press(r, keys.escape)
    const frame = await waitForFrame(r, (f) => !f.includes('edit ›'))
    expect(frame).not.toContain('(edited)')
    expect(frame).toContain('state order')
  })

  it('disarms Esc Esc on any other key: Esc, a letter, Esc only arms again', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused']))} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('state order'))
    await press(r, keys.escape)
    await waitForFrame(r, (f) => f.includes('Esc again to edit'))
    await press(r, 'x', keys.backspace)
    await waitForFrame(r, (f) => f.includes('Enter send') && !f.includes('Esc again'))
    await press(r, keys.escape)
    const frame = await waitForFrame(r, (f) => f.includes('Esc again to edit'))
    expect(frame).not.toContain('edit ›')
  })

  it('walks the prompt history with ↑/↓, keeping the unsent draft for the way back down', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused']))} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('state order'))
    await press(r, '1234', keys.enter)
    await waitForFrame(r, (f) => f.includes('Order 1234'))
    await press(r, 'my draft', keys.up)
    await waitForFrame(r, (f) => /^› 1234\s*$/m.test(f))
    await press(r, keys.up)
    await waitForFrame(r, (f) => /^› \/start\s*$/m.test(f))
    // the oldest: ↑ stays
    await press(r, keys.up)
    await waitForFrame(r, (f) => /^› \/start\s*$/m.test(f))
    await press(r, keys.down, keys.down)
    const frame = await waitForFrame(r, (f) => /^› my draft\s*$/m.test(f))
    expect(frame).not.toContain('edit ›')
  })

  it('searches the history with Ctrl+R: typing refines, Ctrl+R goes older, Enter accepts without sending, Esc goes back to the draft', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused', 'unused', 'unused']))} />)
    for (const prompt of ['order 1111 please', 'where is it?', 'order 2222 please']) {
      await press(r, prompt, keys.enter)
      await waitForFrame(r, (f) => f.includes(`you\n${prompt}`) && f.includes('Enter send'))
    }
    await press(r, 'draft', keys.ctrlR)
    await waitForFrame(r, (f) => f.includes("(reverse-i-search)`':"))
    await press(r, 'ord')
    let frame = await waitForFrame(r, (f) => f.includes("(reverse-i-search)`ord': order 2222 please"))
    expect(frame).toContain('Enter or → accept')
    await press(r, keys.ctrlR)
    await waitForFrame(r, (f) => f.includes("(reverse-i-search)`ord': order 1111 please"))
    await press(r, keys.enter)
    frame = await waitForFrame(r, (f) => /^› order 1111 please\s*$/m.test(f))
    // accepted into the composer, not sent
    expect(count(frame, 'you\norder 1111 please')).toBe(1)
    await press(r, keys.ctrlU, 'draft', keys.ctrlR, 'where')
    await waitForFrame(r, (f) => f.includes("`where': where is it?"))
    await press(r, keys.escape)
    frame = await waitForFrame(r, (f) => /^› draft\s*$/m.test(f))
    expect(frame).not.toContain('reverse-i-search')
  })

  it('writes several lines (Shift+Enter, \\ then Enter, Ctrl+J, a paste) and sends them with their line breaks', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['Noted.']))} />)
    await press(r, 'one', keys.shiftEnter, 'two\\', keys.enter, 'three', keys.ctrlJ)
    await press(r, keys.paste('four\r\nfive'), keys.shiftEnterXterm, 'six')
    let frame = await waitForFrame(r, (f) => f.includes('› one\n  two\n  three\n  four\n  five\n  six'))
    expect(frame).not.toContain('you\n')
    // ↑ on a line below the first moves up a line, ← at a line start goes to the end of the line before
    await press(r, keys.up, keys.up, keys.home, keys.left, 'X')
    frame = await waitForFrame(r, (f) => f.includes('  threeX\n  four'))
    await press(r, keys.enter)
    frame = await waitForFrame(r, (f) => f.includes('Noted.'))
    expect(frame).toContain('you\none\ntwo\nthreeX\nfour\nfive\nsix\n')
  })

  it('sends a state event with Alt+digit', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused']))} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('Alt+1 Escalate'))
    await press(r, keys.alt(1))
    const frame = await waitForFrame(r, (f) => f.includes('state human'))
    expect(frame).toContain('you\nEscalate\n')
    expect(frame).toContain('Connecting you to a human.')
    expect(frame).toContain('state human (final)')
    expect(frame).toContain('last turn deterministic (escalate)')
  })

  it('edits the line like readline: ←/→, Home/End, Ctrl+A/E, Ctrl+W, Ctrl+U, Ctrl+K', async () => {
    const r = render(<InkChat definition={orderChat(scriptedAdapter(['unused']))} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('state order'))
    // A typo two characters back: ← ← Backspace removes it, Enter sends the rest.
    await press(r, '12x34', keys.left, keys.left, keys.backspace)
    await waitForFrame(r, (f) => f.includes('› 1234\n'))
    await press(r, keys.enter)
    await waitForFrame(r, (f) => f.includes('Order 1234. Is that right?'))
    await press(r, 'where is my parcel', keys.ctrlW)
    await waitForFrame(r, (f) => f.includes('› where is my\n'))
    await press(r, keys.ctrlA, 'so ', keys.ctrlE, 'order')
    await waitForFrame(r, (f) => f.includes('› so where is my order\n'))
    await press(r, keys.home, keys.right, keys.right, keys.right, keys.ctrlK)
    await waitForFrame(r, (f) => f.includes('› so\n'))
    await press(r, keys.end, 'then', keys.left, keys.left, keys.ctrlU)
    await waitForFrame(r, (f) => f.includes('› en\n'))
    await press(r, keys.left, 'x', keys.right, 'y')
    const frame = await waitForFrame(r, (f) => f.includes('› xeyn\n'))
    expect(frame).toContain('state confirm')
  })

  it('sends a UI event named unlike its machine event, with its label, from its key', async () => {
    const r = render(<InkChat definition={deliveryChat()} />)
    let frame = await waitForFrame(r, (f) => f.includes('events'))
    expect(frame).toContain('events  Alt+1 Standard  Alt+2 Express')
    await press(r, keys.alt(2))
    frame = await waitForFrame(r, (f) => f.includes('state paid'))
    expect(frame).toContain('you\nExpress\n')
    expect(frame).toContain('bot · deterministic · express-button\nExpress delivery it is.')
  })

  it('stops a streaming agent reply with Esc', async () => {
    let aborted = false
    const hanging: AsyncIterable<StreamChunk> = {
      async *[Symbol.asyncIterator]() {
        yield { type: 'text', content: 'Thinking about it' }
        await new Promise<void>((resolve) => {
          const poll = setInterval(() => {
            if (aborted) {
              clearInterval(poll)
              resolve()
            }
          }, 5)
        })
      },
    }
    const adapter = scriptedAdapter([hanging])
    const base = adapter.createSource.bind(adapter)
    adapter.createSource = (request) => {
      const source = base(request)
      return { stream: source.stream, abort: () => { aborted = true; source.abort() } }
    }
    const r = render(<InkChat definition={orderChat(adapter)} />)
    await press(r, 'hello?', keys.enter)
    await waitForFrame(r, (f) => f.includes('Thinking about it▍') && f.includes('streaming… Esc stop'))
    await press(r, keys.escape)
    const frame = await waitForFrame(r, (f) => f.includes('Enter send'))
    expect(aborted).toBe(true)
    expect(frame).toContain('bot · agentic · aborted\nThinking about it')
    expect(frame).toContain('last turn agentic aborted')
    expect(frame).not.toContain('▍')
  })

  it('shows a failed agent turn: its partial reply, then its error with the code and cause on a line of its own', async () => {
    const failing = scriptedAdapter([[{ type: 'text', content: 'Partial answer so far.' }, { type: 'error', content: 'model unavailable' }]])
    const r = render(<InkChat definition={orderChat(failing)} />)
    await press(r, 'hello?', keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes('✗ model unavailable'))
    expect(frame).toContain('bot · agentic · error\nPartial answer so far.\n✗ model unavailable (AK_ADAPTER_STREAM_FAILED)\n')
    // said once: no second error line under the log
    expect(frame).not.toContain('error: model unavailable')
  })
})

describe('<InkChat> with a live agent', () => {
  it('shows a pending dialog as a picker, answers it through the session, then hides it', async () => {
    const dialog: Dialog = {
      toolId: 'toolu_db',
      kind: 'question',
      prompt: 'Which database should the export read?',
      options: [{ label: 'Postgres' }, { label: 'SQLite' }],
      multiSelect: false,
      answerable: true,
    }
    let snapshot: AgentSnapshot = { agent: 'claude-code', state: 'question', status: 'waiting_for_input', pendingDialog: dialog }
    const listeners = new Set<() => void>()
    const answered: Array<[string, DialogAnswerInput]> = []
    const runState: AgentRunStateSource = {
      getSnapshot: () => snapshot,
      subscribe: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      answerDialog: async (toolId, answer) => {
        answered.push([toolId, answer])
        snapshot = { agent: 'claude-code', state: 'needs_input', status: 'completed' }
        for (const listener of listeners) listener()
        return { delivered: 'next-turn', text: 'Use SQLite.' }
      },
    }
    const adapter = Object.assign(scriptedAdapter(['Exporting from SQLite.']), { agentRunState: runState })
    const r = render(<InkChat definition={orderChat(adapter, 'ink-dialog')} />)
    let frame = await waitForFrame(r, (f) => f.includes('The agent asks'))
    expect(frame).toContain('Which database should the export read?')
    expect(frame).toContain('claude-code question (waiting_for_input)')
    expect(frame).toContain('Answer above · Esc closes the picker · Tab reopens it')
    expect(frame).not.toContain('Enter send')
    await press(r, '2')
    frame = await waitForFrame(r, (f) => f.includes('Exporting from SQLite.'))
    expect(answered).toEqual([['toolu_db', { kind: 'question', answers: [{ question: dialog.prompt, chosen: ['SQLite'] }] }]])
    expect(frame).toContain('you\nUse SQLite.')
    expect(frame).not.toContain('The agent asks')
    expect(frame).toContain('claude-code needs_input (completed)')
  })

  it('keeps an answered question and plan in the log as Q→A lines, without the raw tool name', async () => {
    const question: Dialog = {
      toolId: 'toolu_db', kind: 'question', prompt: 'Which database should the export read?',
      options: [{ label: 'Postgres' }, { label: 'SQLite' }], multiSelect: false, answerable: true,
    }
    const plan: Dialog = { toolId: 'toolu_plan', kind: 'plan', prompt: '# Export plan\n\n1. Read **every** table\n2. Write `export.csv`', options: [], multiSelect: false, answerable: true }
    const listeners = new Set<() => void>()
    let snapshot: AgentSnapshot = { agent: 'claude-code', state: 'needs_input', status: 'completed' }
    const publish = (next: AgentSnapshot) => {
      snapshot = next
      for (const listener of listeners) listener()
    }
    const runState: AgentRunStateSource = {
      getSnapshot: () => snapshot,
      subscribe: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      answerDialog: async (toolId) => {
        publish({ agent: 'claude-code', state: 'needs_input', status: 'completed' })
        return { delivered: 'next-turn', text: toolId === 'toolu_db' ? 'Use SQLite.' : 'Approved, go ahead.' }
      },
    }
    // As a live agent does: the dialog is pending while the turn that asked it still runs.
    let endTurn: () => void = () => undefined
    const asking: AsyncIterable<StreamChunk> = {
      async *[Symbol.asyncIterator]() {
        yield { type: 'text', content: 'I need to ask first.' }
        // The agent runs its own tools: the call arrives with its result, marked as executed by the agent.
        const toolCall = { id: 'toolu_db', name: 'AskUserQuestion', args: '{}', result: 'answered in the chat' }
        yield { type: 'tool_call', toolCall, metadata: { executedBy: 'claude-code' } }
        yield { type: 'tool_result', content: 'answered in the chat', toolCall, metadata: { executedBy: 'claude-code' } }
        await new Promise<void>((resolve) => {
          endTurn = resolve
        })
        yield { type: 'done' }
      },
    }
    const adapter = Object.assign(scriptedAdapter([asking, 'Here is my plan.', 'Exporting now.']), { agentRunState: runState })
    const r = render(<InkChat definition={orderChat(adapter, 'ink-qa')} />)
    await press(r, 'export the data', keys.enter)
    await waitForFrame(r, (f) => f.includes('I need to ask first.▍'))
    publish({ agent: 'claude-code', state: 'question', status: 'waiting_for_input', pendingDialog: question })
    await waitForFrame(r, (f) => f.includes('The agent asks'))
    endTurn()
    await waitForFrame(r, (f) => f.includes('last turn agentic'))
    await press(r, '2')
    let frame = await waitForFrame(r, (f) => f.includes('Here is my plan.'))
    expect(frame).toContain('agent · question\nWhich database should the export read? → SQLite\n\nyou\nUse SQLite.')
    expect(frame).not.toContain('AskUserQuestion')
    publish({ agent: 'claude-code', state: 'question', status: 'waiting_for_input', pendingDialog: plan })
    frame = await waitForFrame(r, (f) => f.includes('The agent proposes a plan'))
    expect(frame).toMatch(/│ Export plan +│/)
    expect(frame).toContain('1. Read every table')
    expect(frame).not.toContain('**')
    await press(r, keys.enter)
    frame = await waitForFrame(r, (f) => f.includes('Exporting now.'))
    expect(frame).toContain('agent · plan\nPlan: Export plan → Approved\n\nyou\nApproved, go ahead.')
  })

  it('closes the picker with Esc and reopens it with Tab', async () => {
    const dialog: Dialog = { toolId: 'toolu_plan', kind: 'plan', prompt: '# Plan\n1. Read the table', options: [], multiSelect: false, answerable: true }
    const runState: AgentRunStateSource = {
      getSnapshot: () => ({ agent: 'claude-code', state: 'question', status: 'waiting_for_input', pendingDialog: dialog }),
      subscribe: () => () => undefined,
    }
    const adapter = Object.assign(scriptedAdapter(['unused']), { agentRunState: runState })
    const r = render(<InkChat definition={orderChat(adapter, 'ink-plan')} />)
    await waitForFrame(r, (f) => f.includes('The agent proposes a plan'))
    await press(r, keys.escape)
    let frame = await waitForFrame(r, (f) => f.includes('Tab answer the agent'))
    expect(frame).not.toContain('The agent proposes a plan')
    await press(r, keys.tab)
    frame = await waitForFrame(r, (f) => f.includes('The agent proposes a plan'))
    expect(frame).toContain('1. Read the table')
  })
})

describe('<InkChat> with a live agent mid-turn', () => {
  it('Esc closes the picker without stopping the turn or dropping the dialog; Tab reopens it and the answer goes through', async () => {
    const dialog: Dialog = { toolId: 'toolu_q', kind: 'question', prompt: 'Proceed?', options: [{ label: 'Yes' }, { label: 'No' }], multiSelect: false, answerable: true }
    let aborted = false
    let release: () => void = () => undefined
    const waiting: AsyncIterable<StreamChunk> = {
      async *[Symbol.asyncIterator]() {
        yield { type: 'text', content: 'Let me ask you first.' }
        await new Promise<void>((resolve) => {
          release = resolve
        })
        yield { type: 'text', content: ' Deploying.' }
        yield { type: 'done' }
      },
    }
    const listeners = new Set<() => void>()
    let snapshot: AgentSnapshot = { agent: 'claude-code', state: 'working', status: 'running' }
    const publish = (next: AgentSnapshot) => {
      snapshot = next
      for (const listener of listeners) listener()
    }
    const answered: DialogAnswerInput[] = []
    const runState: AgentRunStateSource = {
      getSnapshot: () => snapshot,
      subscribe: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      answerDialog: async (_toolId, answer) => {
        answered.push(answer)
        publish({ agent: 'claude-code', state: 'working', status: 'running' })
        release()
        return { delivered: 'live' }
      },
    }
    const adapter = Object.assign(scriptedAdapter([waiting]), { agentRunState: runState })
    const base = adapter.createSource.bind(adapter)
    adapter.createSource = (request) => {
      const source = base(request)
      return { stream: source.stream, abort: () => { aborted = true; source.abort() } }
    }
    const r = render(<InkChat definition={orderChat(adapter, 'ink-midturn')} />)
    await press(r, '/start', keys.enter)
    await waitForFrame(r, (f) => f.includes('Alt+1 Escalate'))
    await press(r, 'deploy it', keys.enter)
    await waitForFrame(r, (f) => f.includes('Let me ask you first.▍'))
    publish({ agent: 'claude-code', state: 'question', status: 'waiting_for_input', pendingDialog: dialog })
    let frame = await waitForFrame(r, (f) => f.includes('The agent asks'))
    // An event key now would stop the turn the dialog belongs to: none is advertised.
    expect(frame).not.toContain('Alt+1')
    await press(r, keys.escape)
    frame = await waitForFrame(r, (f) => f.includes('Tab answer the agent'))
    expect(aborted).toBe(false)
    expect(frame).not.toContain('The agent asks')
    expect(frame).not.toContain('Alt+1')
    await press(r, keys.tab)
    await waitForFrame(r, (f) => f.includes('The agent asks'))
    await press(r, '1')
    frame = await waitForFrame(r, (f) => f.includes('Deploying.') && f.includes('Proceed? → Yes'))
    expect(answered).toEqual([{ kind: 'question', answers: [{ question: 'Proceed?', chosen: ['Yes'] }] }])
    expect(aborted).toBe(false)
  })
})
