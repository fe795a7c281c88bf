import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { cliBundle } from '../support/cli-bundle.js'
import { toDot, toMermaid } from '../../src/conversation/mermaid.js'
import { lostCard } from './fixtures/lost-card.js'

/**
 * `chatrail explain` and `chatrail graph` as users run them: the real CLI (built once with esbuild
 * and started with plain node, test/support/cli-bundle.ts) loading a TypeScript definition module,
 * asserted on exit code and output. The spawns run in beforeAll, two at a time.
 */

interface Outcome { code: number | null; stdout: string; stderr: string }

const main = await cliBundle()
const fixtures = resolve('test/tools/fixtures')

function chatrail(args: readonly string[]): Promise<Outcome> {
  return new Promise((done) => {
    execFile(process.execPath, [main, ...args], { cwd: fixtures, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
    })
  })
}

const runs: Record<string, readonly string[]> = {
  explain: ['explain', 'lost-card.ts', 'it ends in 4821', '--state', 'identify'],
  explainJson: ['explain', './lost-card.ts', '--event', 'confirm', '--state', 'confirm', '--context', '{"verified":true}', '--json'],
  badState: ['explain', 'lost-card.ts', 'yes', '--state', 'confrim'],
  mermaid: ['graph', 'lost-card.ts'],
  dot: ['graph', 'lost-card.ts', '--format', 'dot'],
  missing: ['graph', 'no-such-module.ts'],
  help: ['graph', '--help'],
  typo: ['explain', 'lost-card.ts', 'yes', '--stat', 'confirm'],
}
const results = new Map<string, Outcome>()

beforeAll(async () => {
  const names = Object.keys(runs)
  for (let i = 0; i < names.length; i += 2) {
    await Promise.all(names.slice(i, i + 2).map(async (name) => results.set(name, await chatrail(runs[name] ?? []))))
  }
}, 300_000)

const outcome = (name: string): Outcome => results.get(name) ?? { code: null, stdout: '', stderr: `no run "${name}"` }

describe('chatrail explain', () => {
  it('prints every route with its reason, the answering route marked', () => {
    const { code, stdout, stderr } = outcome('explain')
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toContain('"it ends in 4821" in state "identify": route "last4" answers\n')
    expect(stdout).toContain('  ✓ last4       matched   fires "identified" → "confirm"\n')
    expect(stdout).toContain('  · start       event     "identify" does not declare its event "start"\n')
    expect(stdout.trimEnd().split('\n')).toHaveLength(1 + lostCard.conversation.routes.length)
  })

  it('explains a UI event with a context as JSON', () => {
    const { code, stdout } = outcome('explainJson')
    expect(code).toBe(0)
    const parsed = JSON.parse(stdout) as { state: string; routes: { routeId: string; matched: boolean; reason: string }[] }
    expect(parsed.state).toBe('confirm')
    expect(parsed.routes.find((entry) => entry.routeId === 'yes-button')).toMatchObject({ matched: true, reason: 'matched' })
    expect(parsed.routes.find((entry) => entry.routeId === 'yes')).toMatchObject({ matched: false, reason: 'no-match' })
  })

  it('refuses an unknown state with a suggestion, exit 2', () => {
    const { code, stderr } = outcome('badState')
    expect(code).toBe(2)
    expect(stderr).toContain('chatrail explain: --state "confrim" is not a state of lost-card (did you mean "confirm"?)')
  })
})

describe('chatrail graph', () => {
  it('prints the Mermaid diagram toMermaid draws', () => {
    expect(outcome('mermaid')).toEqual({ code: 0, stdout: toMermaid(lostCard), stderr: '' })
  })

  it('prints DOT with --format dot', () => {
    expect(outcome('dot')).toEqual({ code: 0, stdout: toDot(lostCard), stderr: '' })
  })

  it('answers --help with its options and examples, and a mistyped flag with one line and a suggestion', () => {
    const help = outcome('help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--format <mermaid|dot>')
    expect(help.stdout).toContain('\nexamples:\n  chatrail graph ')
    expect(outcome('typo')).toEqual({ code: 2, stdout: '', stderr: 'chatrail explain: unknown option "--stat" (did you mean "--state"?)\nRun "chatrail explain --help" for usage.\n' })
  })

  it('names a module that does not load, exit 1', () => {
    const { code, stderr } = outcome('missing')
    expect(code).toBe(1)
    expect(stderr).toBe(`chatrail graph: no such file: ${resolve(fixtures, 'no-such-module.ts')}\n  hint: Give the path of the module that exports your defineChat result, e.g. src/bot.ts.\n`)
  })
})
