import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import type { SessionRow } from '../../src/agents/monitor/session-rows.js'
import { sessionTableLines } from '../../src/agents/monitor/session-table-text.js'

/** The pure fitting rule behind `chatrail sessions` and its watch view, at every width from 1 to 200. */

const row = (patch: Partial<SessionRow>): SessionRow => ({
  key: patch.project ?? 'k',
  agent: 'codex',
  project: 'chatrail-monorepo',
  title: 'Refactor the session monitor so that it never reads a file twice',
  state: 'waiting for approval',
  waitingFor: '',
  detail: '',
  lastActivity: '12m ago',
  attention: 'needs_you',
  ...patch,
})

const rows = [
  row({ agent: 'claude', waitingFor: 'Run `npm test -- --run test/agents/monitor/scale.test.ts`?' }),
  row({ state: 'failed', detail: 'The scripted model refuses.', attention: 'finished', lastActivity: 'now' }),
  row({ state: 'running', title: 'Hi', project: 'x', attention: 'active', lastActivity: '3d ago' }),
]

describe('sessionTableLines({ width })', () => {
  it('never writes a line longer than the width, at any width', () => {
    for (let width = 1; width <= 200; width += 1) {
      for (const line of sessionTableLines(rows, { width })) expect(line.length, `width ${width}: ${line}`).toBeLessThanOrEqual(width)
    }
  })

  it('keeps the agent and the age whole and the columns aligned wherever the columns\' minimums fit (58 here: 46 + 6 gaps of 2)', () => {
    for (let width = 58; width <= 200; width += 1) {
      const [header = '', ...lines] = sessionTableLines(rows, { width })
      const active = header.indexOf('ACTIVE')
      expect(active, `width ${width}`).toBeGreaterThan(0)
      lines.forEach((line, index) => {
        expect(line.slice(0, 6).trim()).toBe(rows[index]?.agent)
        expect(line.slice(active)).toBe(rows[index]?.lastActivity)
      })
    }
  })

  it('cuts only what does not fit, with …; at its natural width or wider nothing is cut', () => {
    const natural = sessionTableLines(rows)
    const widest = Math.max(...natural.map((line) => line.length))
    expect(sessionTableLines(rows, { width: widest })).toEqual(natural)
    expect(sessionTableLines(rows, { width: widest + 40 })).toEqual(natural)
    expect(natural.join('\n')).not.toContain('…')
    const narrow = sessionTableLines(rows, { width: widest - 10 })
    expect(narrow.join('\n')).toContain('…')
    // The text columns gave the width up; the state is whole.
    expect(narrow[1]).toContain(' waiting for approval ')
  })

  it('measures terminal cells, not UTF-16 units: wide titles (CJK, emoji) never overflow and are never cut mid-character', () => {
    const wide = [
      row({ title: '修复会话监视器的标题显示问题并添加测试', project: 'プロジェクト' }),
      row({ title: 'Ship it 🚀🚀🚀 with flags 🇫🇷🇯🇵 and e\u0301clairs', state: 'running', attention: 'active' }),
    ]
    for (let width = 20; width <= 120; width += 1) {
      for (const line of sessionTableLines(wide, { width })) {
        expect(stringWidth(line), `width ${width}: ${line}`).toBeLessThanOrEqual(width)
        // A flag is two regional indicators: a cut between them would leave a run of odd length.
        for (const run of line.match(/[\u{1F1E6}-\u{1F1FF}]+/gu) ?? []) expect([...run].length % 2, `width ${width}: ${line}`).toBe(0)
      }
    }
    // Columns stay aligned in cells: every line's ACTIVE cell starts at the header's ACTIVE column.
    const [header = '', ...lines] = sessionTableLines(wide, { width: 100 })
    const activeAt = stringWidth(header.slice(0, header.indexOf('ACTIVE')))
    for (const line of lines) expect(stringWidth(line) - stringWidth('12m ago')).toBe(activeAt)
  })
})
