import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanup, render } from 'ink-testing-library'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionRow } from '../../src/agents/monitor/session-rows.js'
import { sessionTableLines } from '../../src/agents/monitor/session-table-text.js'
import { runInspect } from '../../src/cli/inspect.js'
import { runSessions } from '../../src/cli/sessions.js'
import type { AgentChat } from '../../src/contract/agent-chat.js'
import type { Dialog } from '../../src/contract/dialog.js'
import type { Message } from '../../src/contract/message.js'
import { terminalJson, terminalText } from '../../src/contract/terminal-text.js'
import { DialogPicker } from '../../renderers/ink/dialog-picker.js'
import { MessageView } from '../../renderers/ink/message-view.js'

/**
 * Issue 28 item 10: control sequences in transcripts (a title set, a screen clear, a clipboard
 * write through OSC 52, an 8-bit CSI) never reach the terminal raw from `chatrail inspect`,
 * `chatrail sessions` (table, JSON and watch rows) or the Ink renderer. One function,
 * src/contract/terminal-text.ts, shows them as symbols.
 */

const HOSTILE = 'Fix it\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m\u007f done'
/** What must never be printed raw: C0 controls but newline and tab, DEL, C1. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/
/** Ink's own styling (SGR colour sequences), which is not the content's. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INK_STYLE = /\u001b\[[0-9;]*m/g

const SESSION = 'ad9a347b-1772-4bea-87d0-7f488298ac9a'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-escapes-'))
})
afterEach(() => {
  cleanup()
  rmSync(dir, { recursive: true, force: true })
})

function transcript(at: Date): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/tmp/proj\u001b]0;cwd\u0007', sessionId: SESSION, version: '2.1.197' }
  const when = at.toISOString()
  return [
    { ...base, parentUuid: null, type: 'user', message: { role: 'user', content: HOSTILE }, uuid: 'u-1', timestamp: when },
    { ...base, parentUuid: 'u-1', type: 'assistant', message: { id: 'msg_1', role: 'assistant', model: 'm', content: [{ type: 'text', text: `Reply ${HOSTILE}` }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }, uuid: 'a-1', timestamp: when },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n')
    .concat('\n')
}

describe('terminalText', () => {
  it('shows C0, DEL and C1 controls as symbols and keeps newlines and tabs', () => {
    expect(terminalText('a\u001b]0;t\u0007b\u009b2Jc\u007fd\re\r\nf\tg\nh')).toBe('a␛]0;t␇b\\x9b2Jc␡d␍e\nf\tg\nh')
    expect(terminalText('a\nb\tc\r\nd', { singleLine: true })).toBe('a b c d')
    expect(RAW_CONTROL.test(terminalText(HOSTILE))).toBe(false)
  })

  it('keeps a JSON text\'s value while escaping what JSON.stringify leaves raw', () => {
    const json = JSON.stringify({ title: HOSTILE })
    expect(RAW_CONTROL.test(json)).toBe(true)
    expect(RAW_CONTROL.test(terminalJson(json))).toBe(false)
    expect(JSON.parse(terminalJson(json))).toEqual({ title: HOSTILE })
  })
})

describe('chatrail inspect', () => {
  it('prints the human view and warnings without raw controls', async () => {
    const path = join(dir, `${SESSION}.jsonl`)
    writeFileSync(path, transcript(new Date(Date.UTC(2026, 10, 30))))
    const out: string[] = []
    const err: string[] = []
    expect(await runInspect([path], { stdout: (text) => out.push(text), stderr: (text) => err.push(text) })).toBe(0)
    const text = out.join('\n')
    expect(text).toMatch(/user +Fix it␛\]0;pwned␇␛\[2J␛\]52;c;cm0gLXJmIH4=␇\\x9b31m␡ done/)
    expect(text).toMatch(/cwd +\/tmp\/proj␛\]0;cwd␇/)
    expect(RAW_CONTROL.test(text)).toBe(false)
    expect(err).toEqual([])
  })

  it('prints --json with the same values and no raw DEL or C1', async () => {
    const path = join(dir, `${SESSION}.jsonl`)
    writeFileSync(path, transcript(new Date(Date.UTC(2026, 10, 30))))
    const out: string[] = []
    expect(await runInspect([path, '--json'], { stdout: (text) => out.push(text), stderr: () => undefined })).toBe(0)
    expect(RAW_CONTROL.test(out.join('\n'))).toBe(false)
    const chat = JSON.parse(out.join('\n')) as AgentChat
    expect(chat.messages[0]?.text).toBe(HOSTILE)
  })

  it('names a hostile path on stderr safely', async () => {
    const err: string[] = []
    expect(await runInspect([join(dir, 'missing\u001b]0;x\u0007.jsonl')], { stdout: () => undefined, stderr: (text) => err.push(text) })).toBe(1)
    expect(err.join('\n')).toMatch(/missing␛\]0;x␇\.jsonl does not exist/)
    expect(RAW_CONTROL.test(err.join('\n'))).toBe(false)
  })
})

describe('chatrail sessions', () => {
  const placeHome = (): string => {
    const home = join(dir, 'home')
    const project = join(home, '.claude', 'projects', '-tmp-proj')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, `${SESSION}.jsonl`), transcript(new Date(Date.now() - 60_000)))
    return home
  }

  it('prints the table (titles and projects from the transcript) without raw controls', async () => {
    const home = placeHome()
    const out: string[] = []
    expect(await runSessions(['--home', home, '--no-opencode-url'], { stdout: (text) => out.push(text), stderr: () => undefined, env: {} })).toBe(0)
    const text = out.join('\n')
    expect(text).toMatch(/Fix it␛\]0;pwned␇/)
    expect(RAW_CONTROL.test(text)).toBe(false)
  })

  it('prints --json with the same values and no raw DEL or C1', async () => {
    const home = placeHome()
    const out: string[] = []
    expect(await runSessions(['--home', home, '--no-opencode-url', '--json'], { stdout: (text) => out.push(text), stderr: () => undefined, env: {} })).toBe(0)
    expect(RAW_CONTROL.test(out.join('\n'))).toBe(false)
    const parsed = JSON.parse(out.join('\n')) as { entries: { title?: string }[] }
    expect(parsed.entries[0]?.title).toBe(HOSTILE)
  })

  it('the table text the watch view colours (any agent: an OpenCode title too) is safe and keeps one line per row', () => {
    const row: SessionRow = { key: 'opencode:ses_1', agent: 'opencode', project: 'p\u001b[2J', title: `${HOSTILE}\nsecond line`, state: 'idle', waitingFor: '', detail: 'x\u009b1m', lastActivity: 'now', attention: 'quiet' }
    const lines = sessionTableLines([row])
    expect(lines).toHaveLength(2)
    expect(RAW_CONTROL.test(lines.join('\n'))).toBe(false)
    expect(lines[1]).toMatch(/p␛\[2J +Fix it␛\]0;pwned␇.* done second line +idle +x\\x9b1m/)
  })
})

describe('the Ink renderer', () => {
  const frame = (element: React.ReactElement): string => (render(element).lastFrame() ?? '').replace(INK_STYLE, '')

  it('renders a message\'s text and tool names with controls as symbols', () => {
    const message: Message = { id: 'm1', role: 'assistant', content: HOSTILE, status: 'complete', createdAt: new Date(0), toolCalls: [{ id: 't1', name: 'Bash\u001b]0;x\u0007', args: {}, status: 'complete' }] }
    const text = frame(<MessageView message={message} label={'agentic\u001b[2J'} />)
    expect(text).toMatch(/Fix it␛\]0;pwned␇␛\[2J/)
    expect(text).toMatch(/Bash␛\]0;x␇/)
    expect(text).toMatch(/agentic␛\[2J/)
    expect(RAW_CONTROL.test(text)).toBe(false)
  })

  it('renders an agent dialog\'s question and options with controls as symbols', () => {
    const dialog: Dialog = { toolId: 'd1', kind: 'question', prompt: HOSTILE, options: [{ label: 'Yes\u001b]52;c;eA==\u0007' }, { label: 'Other', isOther: true }], multiSelect: false, answerable: true }
    const text = frame(<DialogPicker dialog={dialog} onAnswer={() => undefined} onDismiss={() => undefined} isActive={false} columns={120} />)
    expect(text).toMatch(/Fix it␛\]0;pwned␇/)
    expect(text).toMatch(/Yes␛\]52;c;eA==␇/)
    expect(RAW_CONTROL.test(text)).toBe(false)
  })
})
