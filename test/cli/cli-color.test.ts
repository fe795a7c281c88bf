import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { MonitorEntry } from '../../src/agents/monitor/monitor-entry.js'
import { sessionRows } from '../../src/agents/monitor/session-rows.js'
import { applyColorPolicyToInk, colorEnabled, palette } from '../../src/cli/color.js'
import { runExplainCommand } from '../../src/cli/explain.js'
import { paintReport } from '../../src/cli/paint-report.js'
import { runSessions } from '../../src/cli/sessions.js'
import { runTestCommand } from '../../src/cli/test-command.js'
import { makeFakeHome, placeClaude, placeCodex, writeRegistry } from '../agents/monitor/fake-home.js'

/**
 * Colour in `chatrail test`, `explain` and `sessions`: on a terminal only, NO_COLOR and
 * FORCE_COLOR respected, and the text under the colour exactly the plain report.
 */

const ESC = '\u001B'
const strip = (text: string): string => text.replace(new RegExp(`${ESC}\\[\\d+m`, 'g'), '')
const root = join(import.meta.dirname, '..', '..')
const definition = join(root, 'examples', 'support-bot', 'definition.ts')

function capture(color: boolean) {
  const out: string[] = []
  const err: string[] = []
  return { io: { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text), cwd: root, color }, out, err }
}

describe('the colour rule', () => {
  it('FORCE_COLOR decides when set; else a non-empty NO_COLOR turns it off; else only a terminal that is not dumb', () => {
    const tty = { isTTY: true }
    const pipe = { isTTY: false }
    expect(colorEnabled(tty, {})).toBe(true)
    expect(colorEnabled(pipe, {})).toBe(false)
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false)
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false)
    // an empty NO_COLOR is not set (no-color.org)
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true)
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true)
    expect(colorEnabled(pipe, { FORCE_COLOR: '' })).toBe(true)
    expect(colorEnabled(tty, { FORCE_COLOR: '0' })).toBe(false)
    expect(colorEnabled(tty, { FORCE_COLOR: 'false' })).toBe(false)
    expect(colorEnabled(tty, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true)
  })

  it('NO_COLOR reaches Ink as FORCE_COLOR=0 (chalk reads only FORCE_COLOR); an explicit FORCE_COLOR is kept', () => {
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1' }
    applyColorPolicyToInk(env)
    expect(env.FORCE_COLOR).toBe('0')
    const forced: NodeJS.ProcessEnv = { NO_COLOR: '1', FORCE_COLOR: '2' }
    applyColorPolicyToInk(forced)
    expect(forced.FORCE_COLOR).toBe('2')
    const plain: NodeJS.ProcessEnv = {}
    applyColorPolicyToInk(plain)
    expect(plain.FORCE_COLOR).toBeUndefined()
  })

  it('painting never changes the text under the colour, and colour off changes nothing', () => {
    const lines = fc.array(fc.oneof(fc.constantFrom('✓ a › b (2 turns)', '✗ x', '⚠ w', '  · r  no-match', 'PASS  all', 'FAIL  some', '      hint: h', '      trace: t'), fc.string()), { maxLength: 12 })
    fc.assert(
      fc.property(lines, fc.boolean(), (report, heading) => {
        const text = report.join('\n')
        expect(strip(paintReport(text, palette(true), { heading }))).toBe(text)
        expect(paintReport(text, palette(false), { heading })).toBe(text)
      }),
    )
  })
})

describe('chatrail test and explain', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('`test` colours the marks and the verdict on a terminal, and prints the plain report otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-color-'))
    dirs.push(dir)
    const file = join(dir, 'mixed.conv.yaml')
    writeFileSync(
      file,
      [
        `definition: { module: ${JSON.stringify(definition)}, export: supportBot }`,
        'conversations:',
        '  - name: help works',
        '    turns:',
        '      - user: /help',
        '        expect: { route: help }',
        '  - name: a wrong expectation',
        '    turns:',
        '      - user: /help',
        '        expect: { route: start }',
        '',
      ].join('\n'),
    )
    const colored = capture(true)
    expect(await runTestCommand([file], colored.io)).toBe(1)
    const report = colored.out.join('\n')
    expect(report).toContain(`${ESC}[32m✓${ESC}[39m`)
    expect(report).toMatch(new RegExp(`${ESC}\\[31m✗ [^\\n]*a wrong expectation`))
    expect(report).toContain(`${ESC}[1m${ESC}[31mFAIL`)
    const plain = capture(false)
    expect(await runTestCommand([file], plain.io)).toBe(1)
    expect(plain.out.join('\n')).not.toContain(ESC)
    expect(strip(report)).toBe(plain.out.join('\n'))
  }, 60_000)

  it('`explain` makes its heading bold, the answering route green and the others dim', async () => {
    const colored = capture(true)
    expect(await runExplainCommand([definition, '/human'], colored.io)).toBe(0)
    const [heading = '', ...routes] = (colored.out[0] ?? '').split('\n')
    expect(heading).toBe(`${ESC}[1m"/human" in state "greeting": route "human" answers${ESC}[22m`)
    expect(routes.find((line) => line.includes('human ') && line.includes('matched'))).toMatch(new RegExp(`^  ${ESC}\\[32m✓${ESC}\\[39m human`))
    expect(routes.filter((line) => line.startsWith(`${ESC}[2m  ·`)).length).toBe(routes.length - 1)
    const plain = capture(false)
    await runExplainCommand([definition, '/human'], plain.io)
    expect(plain.out[0]).not.toContain(ESC)
  }, 60_000)
})

describe('chatrail sessions', () => {
  const entry = (patch: Partial<MonitorEntry> & Pick<MonitorEntry, 'key'>): MonitorEntry => ({ agent: 'claude-code', sessionId: patch.key, path: `/x/${patch.key}`, state: 'needs_input', status: 'waiting_for_approval', lastActivityAt: 1_000, ...patch })

  it('WAITING FOR names a plan by its title and a question by its first line, with how many more it asks', () => {
    const rows = sessionRows(
      [
        entry({ key: 'plan', pendingDialog: { toolId: 't', kind: 'plan', prompt: '# Plan: **Reship** the order\n\n1. Check stock\n2. Ship', options: [], multiSelect: false, answerable: true } }),
        entry({ key: 'questions', state: 'question', status: 'waiting_for_input', pendingDialog: { toolId: 'u', kind: 'question', prompt: 'Which colour?', options: [], multiSelect: false, answerable: true, questions: [{ question: 'Which colour?', options: [], multiSelect: false }, { question: 'Which size?', options: [], multiSelect: false }] } }),
      ],
      2_000,
    )
    expect(rows.find((row) => row.key === 'plan')?.waitingFor).toBe('plan: Plan: Reship the order')
    expect(rows.find((row) => row.key === 'questions')?.waitingFor).toBe('Which colour? (+1 more)')
  })

  it('with only sessions that ended long ago it says so instead of an empty table; rows are coloured by what they ask of you', async () => {
    const home = makeFakeHome()
    try {
      placeCodex(home, 'plain-turn', { endsAgoMs: 3 * 86_400_000 })
      const old = capture(false)
      expect(await runSessions(['--home', home.home, '--no-opencode-url'], { stdout: old.io.stdout, stderr: old.io.stderr, env: {} })).toBe(0)
      expect(old.out).toEqual(['No session active in the last day; 1 older session is hidden (--all shows it).'])

      const waiting = placeClaude(home, 'permission-pending', { endsAgoMs: 60_000 })
      writeRegistry(home, { pid: process.pid, sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
      const colored = capture(true)
      expect(await runSessions(['--home', home.home, '--no-opencode-url'], { stdout: colored.io.stdout, stderr: colored.io.stderr, env: {}, color: true })).toBe(0)
      const [header = '', row = '', hidden = ''] = (colored.out[0] ?? '').split('\n')
      expect(header).toMatch(new RegExp(`^${ESC}\\[2mAGENT`))
      expect(row).toMatch(new RegExp(`^${ESC}\\[1m${ESC}\\[33mclaude`))
      expect(colored.out[1] ?? hidden).toContain(`${ESC}[2m(1 session that ended more than a day ago is hidden`)
    } finally {
      home.cleanup()
    }
  }, 60_000)
})
