import { Box } from 'ink'
import { render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup } from 'ink-testing-library'
import type { Dialog } from '../../src/contract/dialog.js'
import type { Message } from '../../src/contract/message.js'
import { Composer } from '../../renderers/ink/composer.js'
import { DialogSummary, dialogSummaryLines } from '../../renderers/ink/dialog-summary.js'
import { EventShortcuts } from '../../renderers/ink/event-shortcuts.js'
import { MessageView } from '../../renderers/ink/message-view.js'
import { appendSettled } from '../../renderers/ink/printed-log.js'
import { outcomeColor, StatusLine } from '../../renderers/ink/status-line.js'
import { Transcript } from '../../renderers/ink/transcript.js'
import { frameText } from './frames.js'

const at = new Date('2025-01-01T00:00:00Z')
const message = (id: string, role: Message['role'], content: string, status: Message['status'] = 'complete'): Message => ({
  id, role, content, status, createdAt: at,
})

afterEach(() => cleanup())

describe('StatusLine', () => {
  it('shows the state, how the last turn was decided, and the backend', () => {
    const r = render(
      <StatusLine state="awaiting_order" lastTurn={{ kind: 'deterministic', outcome: 'ok', routeId: 'greet', replayed: true }} backend="offline: no agent connected" />,
    )
    expect(frameText(r)).toBe('state awaiting_order · last turn deterministic (greet) replayed · agent offline: no agent connected')
  })

  it('shows the live agent run state instead of the backend label when there is one', () => {
    const r = render(
      <StatusLine
        state="help"
        final
        lastTurn={{ kind: 'agentic', outcome: 'aborted', replayed: false }}
        agent={{ agent: 'claude-code', state: 'question', status: 'waiting_for_input', detail: 'asks' }}
        backend="claude-code"
      />,
    )
    expect(frameText(r)).toBe(
      'state help (final) · last turn agentic aborted · claude-code question (waiting_for_input): asks',
    )
  })

  it('colours refused and unavailable (deterministic answers) as a notice, failures red', () => {
    expect(outcomeColor('refused')).toBe('yellow')
    expect(outcomeColor('unavailable')).toBe('yellow')
    expect(outcomeColor('error')).toBe('red')
    expect(outcomeColor('timeout')).toBe('red')
    expect(outcomeColor('aborted')).toBe('red')
    expect(outcomeColor('ok')).toBeUndefined()
    const r = render(<StatusLine state="confirming" lastTurn={{ kind: 'deterministic', outcome: 'unavailable', replayed: false }} />)
    expect(frameText(r)).toBe('state confirming · last turn deterministic unavailable')
  })

  it('cuts a long status line with … at 80 columns instead of wrapping it', () => {
    const r = render(
      <Box width={80}>
        <StatusLine
          state="awaiting_the_customers_confirmation_of_the_reshipment"
          lastTurn={{ kind: 'agentic', outcome: 'ok', replayed: false }}
          agent={{ agent: 'claude-code', state: 'working', status: 'running', detail: 'reading src/orders/reship.ts and the carrier API docs' }}
        />
      </Box>,
    )
    const lines = frameText(r).split('\n')
    expect(lines).toHaveLength(1)
    expect([...(lines[0] ?? '')].length).toBeLessThanOrEqual(80)
    expect(lines[0]).toMatch(/^state awaiting_the_customers_confirmation_of_the_reshipment · last turn agentic.*…$/)
  })

  it('says none before the first turn', () => {
    expect(frameText(render(<StatusLine state="start" />))).toBe('state start · last turn none')
  })
})

describe('EventShortcuts', () => {
  it('numbers the first nine events with Alt+digit and renders nothing without events', () => {
    const shortcut = (uiEvent: string, label: string) => ({ uiEvent, event: uiEvent, label })
    expect(frameText(render(<EventShortcuts events={[shortcut('confirm', 'Confirm'), shortcut('cancel', 'Cancel order')]} />))).toBe(
      'events  Alt+1 Confirm  Alt+2 Cancel order',
    )
    const many = Array.from({ length: 11 }, (_, i) => shortcut(`e${i}`, `e${i}`))
    expect(frameText(render(<EventShortcuts events={many} />))).not.toContain('e9')
    expect(frameText(render(<EventShortcuts events={[]} />))).toBe('')
  })

  it('says the conversation ended after a final state, with its keys (Start over) or alone', () => {
    expect(frameText(render(<EventShortcuts ended events={[{ uiEvent: 'start-over', event: 'start-over', label: 'Start over' }]} />))).toBe(
      'conversation ended  Alt+1 Start over',
    )
    expect(frameText(render(<EventShortcuts ended events={[]} />))).toBe('conversation ended')
  })
})

describe('Composer', () => {
  it('shows the input and a hint that follows the mode, fitted to the width', () => {
    expect(frameText(render(<Composer input="/help" streaming={false} editing={false} columns={100} />))).toBe(
      '› /help\nEnter send · ↑ history · Esc Esc edit last · Ctrl+T retry · Ctrl+J newline · Ctrl+C quit',
    )
    expect(frameText(render(<Composer input="" streaming editing={false} />))).toContain('streaming… Esc stop')
    expect(frameText(render(<Composer input="A-1" streaming={false} editing />))).toBe(
      'edit › A-1\nediting your last message · Enter resend · Esc cancel · Ctrl+J newline',
    )
    expect(frameText(render(<Composer input="" streaming={false} editing={false} dialogClosed />))).toContain('Tab answer the agent')
    expect(frameText(render(<Composer input="" streaming={false} editing={false} escArmed />))).toContain('Esc again to edit your last message')
    expect(frameText(render(<Composer input="" streaming={false} editing={false} columns={40} />))).toBe('›\nEnter send · ↑ history · Ctrl+C quit')
  })

  it('grows with its lines, continuation lines under the text', () => {
    expect(frameText(render(<Composer input={'one\ntwo\nthree'} cursor={5} streaming={false} editing={false} columns={40} />))).toBe(
      '› one\n  two\n  three\nEnter send · ↑ history · Ctrl+C quit',
    )
  })

  it('scrolls past its rows to keep the cursor line in view, saying how many lines are hidden', () => {
    const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')
    const end = frameText(render(<Composer input={text} streaming={false} editing={false} rows={8} columns={40} />))
    expect(end.split('\n')).toEqual(['  ↑ 4 more lines', '  line 5', '  line 6', '  line 7', '  line 8', '  line 9', '  line 10', '  line 11', '  line 12', 'Enter send · ↑ history · Ctrl+C quit'])
    cleanup()
    const start = frameText(render(<Composer input={text} cursor={0} streaming={false} editing={false} rows={8} columns={40} />))
    expect(start.split('\n').slice(0, 2)).toEqual(['› line 1', '  line 2'])
    expect(start).toContain('  ↓ 4 more lines\n')
    expect(start).not.toContain('line 9')
  })

  it('is the reverse-i-search line while Ctrl+R searches', () => {
    expect(frameText(render(<Composer input="draft" streaming={false} editing={false} search={{ query: 'ord', match: 'order 1234', failed: false }} />))).toBe(
      "(reverse-i-search)`ord': order 1234\nEnter or → accept · Ctrl+R older match · Esc cancel",
    )
    expect(frameText(render(<Composer input="" streaming={false} editing={false} search={{ query: 'zz', failed: true }} />))).toContain("(failed reverse-i-search)`zz':")
  })
})

describe('MessageView', () => {
  it('labels the speaker and how the reply was decided', () => {
    expect(frameText(render(<MessageView message={message('a1', 'assistant', 'Hello!')} label="deterministic · greet" />))).toBe(
      'bot · deterministic · greet\nHello!',
    )
    expect(frameText(render(<MessageView message={message('u1', 'user', 'hi')} edited />))).toBe('you (edited)\nhi')
  })

  it('marks streaming, stopped and failed replies', () => {
    expect(frameText(render(<MessageView message={message('a1', 'assistant', 'Hel', 'streaming')} />))).toBe('bot\nHel▍')
    expect(frameText(render(<MessageView message={message('a1', 'assistant', '')} />))).toBe('bot\n(stopped before any text)')
    expect(frameText(render(<MessageView message={message('a1', 'assistant', 'Partial answer', 'error')} failure="server died (AK_ADAPTER_STREAM_FAILED)" />))).toBe(
      'bot · error\nPartial answer\n✗ server died (AK_ADAPTER_STREAM_FAILED)',
    )
    // a failed turn restored from a server carries its code only
    const restored = { ...message('a2', 'assistant', '', 'error'), metadata: { chatrail: { status: 'error', error: { code: 'AGENT_TIMEOUT' } } } }
    expect(frameText(render(<MessageView message={restored} />))).toBe('bot · error\n(no reply)\n✗ the turn failed (AGENT_TIMEOUT)')
  })

})

describe('Transcript', () => {
  it('prints settled messages once through <Static> and redraws only the live reply', () => {
    const u1 = message('u1', 'user', 'hi')
    const streaming = message('a1', 'assistant', 'He', 'streaming')
    let printed = appendSettled([], [u1, streaming])
    const r = render(<Transcript printed={printed} live={streaming} />)
    expect(frameText(r)).toBe('you\nhi\n\nbot\nHe▍')

    const done = message('a1', 'assistant', 'Hello', 'complete')
    printed = appendSettled(printed, [u1, done], () => 'deterministic · greet')
    r.rerender(<Transcript printed={printed} />)
    // In debug mode Ink writes everything <Static> ever printed, then the live part: a reprint
    // of `you / hi` would show up twice, and the streamed draft is gone from the live part.
    expect(frameText(r)).toBe('you\nhi\n\nbot · deterministic · greet\nHello')
  })
})

describe('appendSettled', () => {
  it('keeps identity when nothing settled, waits for an earlier streaming message, marks edits', () => {
    const u1 = message('u1', 'user', 'A-1')
    const a1 = message('a1', 'assistant', 'ok')
    const first = appendSettled([], [u1, a1])
    expect(appendSettled(first, [u1, a1])).toBe(first)
    expect(appendSettled([], [u1, message('a1', 'assistant', '', 'streaming'), message('u2', 'user', 'x')]).map((e) => e.key.split('\u0000')[0])).toEqual(['u1'])
    const edited = appendSettled(first, [message('u1', 'user', 'A-2'), message('a2', 'assistant', 'ok')])
    expect(edited.slice(2).map((e) => (e.kind === 'message' ? [e.message.content, e.edited] : e.kind))).toEqual([['A-2', true], ['ok', false]])
  })
})

describe('DialogSummary', () => {
  const base = { options: [], multiSelect: false, answerable: true }
  it('prints one Q→A line per question, "no answer" for a skipped one, "dismissed" when none landed', () => {
    const dialog: Dialog = {
      ...base, toolId: 't1', kind: 'question', prompt: 'Two things',
      questions: [{ question: 'Which tables?', options: [], multiSelect: true }, { question: 'Format?', options: [], multiSelect: false }],
      outcome: { dismissed: false, approved: false, results: [{ question: 'Which tables?', chosen: ['orders', 'refunds'], otherText: 'only EU' }] },
    }
    expect(frameText(render(<DialogSummary dialog={dialog} />))).toBe('agent · questions\nWhich tables? → orders, refunds, only EU\nFormat? → no answer')
    const dismissed: Dialog = { ...base, toolId: 't2', kind: 'question', prompt: 'Proceed?', outcome: { dismissed: true, approved: false } }
    expect(frameText(render(<DialogSummary dialog={dismissed} />))).toBe('agent · question\nProceed? → dismissed')
  })

  it('names a plan by its title and says the verdict with the feedback; nothing while pending', () => {
    const plan: Dialog = { ...base, toolId: 't3', kind: 'plan', prompt: 'Intro\n\n## Orders **migration**\n\n1. copy', outcome: { dismissed: false, approved: false, feedback: 'do it at night' } }
    expect(frameText(render(<DialogSummary dialog={plan} />))).toBe('agent · plan\nPlan: Orders migration → Rejected: do it at night')
    expect(dialogSummaryLines({ ...plan, outcome: undefined })).toEqual([])
  })
})
