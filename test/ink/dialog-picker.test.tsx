import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import { DialogPicker } from '../../renderers/ink/dialog-picker.js'
import { frameText, waitForFrame } from './frames.js'
import { keys } from './keys.js'

afterEach(() => cleanup())

const question: Dialog = {
  toolId: 'toolu_q',
  kind: 'question',
  prompt: 'Which tables should the export include?',
  options: [{ label: 'orders', description: 'every order since 2020' }, { label: 'customers' }, { label: 'refunds' }],
  multiSelect: true,
  answerable: true,
}

function mount(dialog: Dialog) {
  const answers: DialogAnswerInput[] = []
  let dismissed = 0
  const rendered = render(<DialogPicker dialog={dialog} onAnswer={(a) => answers.push(a)} onDismiss={() => (dismissed += 1)} />)
  return { rendered, answers, dismissed: () => dismissed }
}

/** Writes keys one at a time, waiting for each to be handled (the frame to change or settle). */
async function type(rendered: ReturnType<typeof render>, ...sequence: string[]) {
  for (const bytes of sequence) {
    rendered.stdin.write(bytes)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

describe('DialogPicker (keys through stdin)', () => {
  it('renders the question, its options with descriptions, and an Other row', () => {
    const { rendered } = mount(question)
    expect(frameText(rendered)).toContain('The agent asks')
    expect(frameText(rendered)).toContain('Which tables should the export include?')
    expect(frameText(rendered)).toContain('› 1. [ ] orders')
    expect(frameText(rendered)).toContain('every order since 2020')
    expect(frameText(rendered)).toContain('  4. Other…')
    expect(frameText(rendered)).toContain('Space toggle')
  })

  it('toggles with Space, adds free text through Other, and answers on Enter', async () => {
    const { rendered, answers } = mount(question)
    await type(rendered, keys.down, keys.down, keys.space, keys.up, keys.up, keys.space)
    await waitForFrame(rendered, (f) => f.includes('[x] orders') && f.includes('[x] refunds'))
    await type(rendered, '4', 'only EU', keys.backspace, keys.backspace, 'EU')
    await waitForFrame(rendered, (f) => f.includes('Other…: only EU'))
    await type(rendered, keys.enter)
    expect(answers).toEqual([
      { kind: 'question', answers: [{ question: question.prompt, chosen: ['refunds', 'orders'], otherText: 'only EU' }] },
    ])
  })

  it('leaves the Other editor on Esc, then dismisses the picker on a second Esc', async () => {
    const { rendered, answers, dismissed } = mount({ ...question, multiSelect: false })
    await type(rendered, '4')
    await waitForFrame(rendered, (f) => f.includes('type your answer'))
    await type(rendered, keys.escape)
    await waitForFrame(rendered, (f) => f.includes('↑↓ move'))
    expect(dismissed()).toBe(0)
    await type(rendered, keys.escape)
    expect(dismissed()).toBe(1)
    expect(answers).toEqual([])
  })

  it('renders a plan as markdown: headings, emphasis, lists and code, no markup left', () => {
    const plan = '# Migration plan\n\nMove **orders** to the *new* schema.\n\n## Steps\n\n1. Copy `orders`\n2. Switch reads\n   - verify counts\n\n```sql\nALTER TABLE orders ADD id2 int;\n```'
    const rendered = render(
      <DialogPicker dialog={{ toolId: 'toolu_md', kind: 'plan', prompt: plan, options: [], multiSelect: false, answerable: true }} onAnswer={() => undefined} onDismiss={() => undefined} rows={40} />,
    )
    const frame = frameText(rendered)
    expect(frame).not.toContain('PgUp/PgDn')
    for (const line of ['Migration plan', 'Move orders to the new schema.', 'Steps', '1. Copy orders', '2. Switch reads', '   • verify counts', 'sql', '  ALTER TABLE orders ADD id2 int;']) {
      expect(frame).toMatch(new RegExp(`│ ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +│`))
    }
    expect(frame).not.toMatch(/[#*`]/)
  })

  it('fits a long plan into 60 columns and scrolls it inside the picker (PgDn, PgUp, End), then approves with Enter', async () => {
    const steps = Array.from({ length: 30 }, (_, i) => `${i + 1}. step ${i + 1}: migrate the table and check the row counts afterwards`)
    const plan = `# Migration plan\n\n${steps.join('\n')}`
    const answers: DialogAnswerInput[] = []
    const rendered = render(
      <DialogPicker dialog={{ toolId: 'toolu_p', kind: 'plan', prompt: plan, options: [], multiSelect: false, answerable: true }} onAnswer={(a) => answers.push(a)} onDismiss={() => undefined} columns={60} rows={20} />,
    )
    let frame = frameText(rendered)
    expect(Math.max(...frame.split('\n').map((line) => [...line].length))).toBeLessThanOrEqual(60)
    expect(frame.split('\n').length).toBeLessThanOrEqual(20)
    // Wrapped between words, with a hanging indent under the number.
    expect(frame).toMatch(/│ 1\. step 1: migrate the table and check the row counts +│\n│ {4}afterwards +│/)
    expect(frame).toMatch(/lines 1–12 of \d+ · PgUp\/PgDn scroll/)
    expect(frame).not.toContain('30. step 30')
    expect(frame).toContain('3. Reject with feedback…')
    await type(rendered, keys.pageDown)
    frame = await waitForFrame(rendered, (f) => f.includes('lines 12–23'))
    expect(frame).not.toContain('Migration plan')
    await type(rendered, keys.end)
    frame = await waitForFrame(rendered, (f) => f.includes('30. step 30'))
    await type(rendered, keys.pageUp, keys.home)
    frame = await waitForFrame(rendered, (f) => f.includes('Migration plan'))
    await type(rendered, keys.enter)
    expect(answers).toEqual([{ kind: 'plan', approved: true }])
  })

  it('answers once when several keys arrive in one read', async () => {
    const { rendered, answers } = mount({ ...question, multiSelect: false })
    await type(rendered, '12\r')
    await type(rendered, '3')
    expect(answers).toEqual([{ kind: 'question', answers: [{ question: question.prompt, chosen: ['orders'] }] }])
  })

  it('takes no keys and says where to answer when the dialog is not answerable here', async () => {
    const { rendered, answers } = mount({ ...question, answerable: false })
    expect(frameText(rendered)).toContain("only be answered in the agent's own window")
    await type(rendered, keys.enter)
    expect(answers).toEqual([])
  })
})
