import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { projectRoot as root, terminalEnv } from './demo-driver.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

/**
 * Issue 31's proof for Ink replies, in a real pseudo-terminal at 80×24 and 120×40: an agent reply
 * with a heading, emphasis, a table and a fenced block shows none of its markdown syntax, the table
 * in aligned columns fitted to the width (its long cell cut with … at 80, whole at 120), the code
 * under its language, and no row the terminal had to wrap. test/ink/reply-markdown.test.tsx checks
 * the layout in process; this checks what a person sees after Ink's cursor moves.
 */

const tsx = join(root, 'node_modules', '.bin', 'tsx')
const LONG_CELL = 'Standard ground shipping with tracking, signature on delivery and a Saturday slot'
const running: PtyTerminal[] = []
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
})

describe('an agent reply in markdown, in a real pseudo-terminal', () => {
  it.each([
    [80, 24],
    [120, 40],
  ])('at %i×%i: no markdown syntax, a table in aligned columns within the width, code under its language, nothing wrapped', async (cols, rows) => {
    const terminal = startPty(tsx, [join(root, 'test', 'ink', 'fixtures', 'markdown-reply-app.tsx')], { cwd: root, env: terminalEnv(), cols, rows })
    running.push(terminal)
    await terminal.waitFor('state start · last turn none', 45_000)
    terminal.write('what are my options?')
    await terminal.waitFor('› what are my options?')
    terminal.write(keys.enter)
    const screen = await terminal.waitFor((text) => text.includes('last turn agentic') && text.includes('reship(12345)'))
    const lines = screen.split('\n')
    // the pane as a person sees it, for docs/ink.md § Replies in markdown
    mkdirSync(join(root, 'test-output'), { recursive: true })
    writeFileSync(join(root, 'test-output', `ink-markdown-${cols}x${rows}.txt`), screen)

    expect(screen).not.toMatch(/##|\*\*|\| ?---|```/)
    expect(lines).toContain('Reship options')
    expect(lines).toContain('Order #12345 can be reshipped:')
    const table = lines.filter((line) => line.includes('│'))
    expect(table).toHaveLength(3)
    expect(table[0]).toMatch(/^Option\s+│ Days │ Cost$/)
    expect(table[2]).toMatch(/^Express\s+│ 1 +│ 9\.90$/)
    const bars = table.map((row) => [...row].flatMap((char, index) => (char === '│' ? [index] : [])))
    expect(new Set(bars.map((at) => at.join(','))).size).toBe(1)
    // the long cell: cut at 80 columns, whole at 120
    if (cols === 80) expect(table[1]).toMatch(/^Standard ground shipping.*… │ 5 +│ free$/)
    else expect(table[1]).toContain(`${LONG_CELL} │ 5`)
    const label = lines.indexOf('ts')
    expect(label).toBeGreaterThan(0)
    expect(lines[label + 1]).toBe('  reship(12345)')

    expect(terminal.wrappedRows()).toEqual([])
    expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(cols)
    terminal.write(keys.ctrlC)
    expect((await terminal.exited).exitCode).toBe(0)
  }, 60_000)
})
