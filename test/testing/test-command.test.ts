import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliBundle } from '../support/cli-bundle.js'
import { clockBotModule, shopBotModule, writeConversationDir } from './support/conversation-dir.js'

/**
 * `chatrail test` as users run it: a spawned CLI (the CLI built once with esbuild and started with
 * plain node, test/support/cli-bundle.ts; it loads the TypeScript definitions through tsx as an
 * installed chatrail does), asserted on exit code, stdout and stderr. The spawns run in beforeAll,
 * two at a time.
 */

interface Outcome { code: number | null; stdout: string; stderr: string }

const main = await cliBundle()

function chatrail(args: readonly string[], cwd: string): Promise<Outcome> {
  return new Promise((done) => {
    execFile(process.execPath, [main, 'test', ...args], { cwd, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      done({ code, stdout, stderr })
    })
  })
}

const shop = `definition: { module: ${shopBotModule}, export: shopBot }`
let dir = ''
const results = new Map<string, Outcome>()

afterAll(() => { if (dir !== '') rmSync(dir, { recursive: true, force: true }) })

beforeAll(async () => {
  dir = writeConversationDir({
    'pass.conv.yaml': [shop, 'turns:', '  - user: /start', '    expect: { route: start, state: menu }', '  - user: order tea', '    expect: { route: order, context: { item: tea } }'],
    'fail.conv.yaml': [shop, 'turns:', '  - user: /start', '  - user: /help', '    expect: { route: cancel, modelCalls: 0 }'],
    'invalid.conv.yaml': [shop, 'turns:', '  - user: /start', '    expect: { stat: menu }'],
    'clock.conv.yaml': [`definition: { module: ${clockBotModule}, export: clockBot }`, 'turns:', '  - user: /time'],
  })
  const runs: Record<string, readonly string[]> = {
    pass: ['pass.conv.yaml'],
    fail: ['pass.conv.yaml', 'fail.conv.yaml', 'invalid.conv.yaml'],
    json: ['fail.conv.yaml', '--json'],
    gates: ['pass.conv.yaml', 'clock.conv.yaml', '--coverage', '--min-coverage', '90', '--replay-check'],
    usage: ['--bogus'],
    badMin: ['--min-coverage', 'lots'],
    none: ['nothing/*.conv.yaml'],
    help: ['--help'],
  }
  const queue = Object.entries(runs)
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) results.set(next[0], await chatrail(next[1], dir))
  }
  await Promise.all([worker(), worker()])
}, 300_000)

const outcome = (name: string): Outcome => {
  const result = results.get(name)
  if (result === undefined) throw new Error(`no run ${name}`)
  return result
}

describe('chatrail test', () => {
  it('exits 0 and says PASS when every conversation passes', () => {
    expect(outcome('pass')).toMatchObject({ code: 0, stderr: '' })
    expect(outcome('pass').stdout).toBe('✓ pass.conv.yaml › pass (2 turns)\n\nPASS  conversations: 1 passed, 0 failed (1 file)\n')
  })

  it('exits 1 on a failure or an invalid file and reports the turn or the place, expected vs actual and the trace', () => {
    const { code, stdout } = outcome('fail')
    expect(code).toBe(1)
    expect(stdout).toBe(
      [
        '✗ fail.conv.yaml › fail (2 turns)',
        '    turn 2 · user "/help" · fail.conv.yaml:5:22',
        '      route: expected "cancel", got "help"',
        '      trace: deterministic ok · route help · event HELP · menu → menu',
        '',
        '✗ invalid.conv.yaml (invalid)',
        '    invalid.conv.yaml:4:15  turns[0].expect: unknown key "stat"',
        '      hint: Did you mean "state"? Allowed here: route, kind, outcome, state, context, reply, replyMatches, modelCalls, replayed, error.',
        '',
        '✓ pass.conv.yaml › pass (2 turns)',
        '',
        'FAIL  conversations: 1 passed, 1 failed, 1 invalid file (3 files)',
        '',
      ].join('\n'),
    )
  })

  it('prints machine-readable results with --json', () => {
    const { code, stdout } = outcome('json')
    expect(code).toBe(1)
    const json = JSON.parse(stdout) as {
      passed: boolean
      summary: Record<string, number>
      files: { file: string; conversations: { name: string; passed: boolean; failures: { turn: number; field: string; expected: unknown; actual: unknown; line: number; column: number }[] }[] }[]
    }
    expect(json.passed).toBe(false)
    expect(json.summary).toEqual({ files: 1, invalidFiles: 0, conversations: 1, passedConversations: 0, failedConversations: 1 })
    expect(json.files[0]?.file).toBe(join(dir, 'fail.conv.yaml'))
    expect(json.files[0]?.conversations[0]?.failures).toEqual([
      expect.objectContaining({ turn: 2, field: 'route', expected: 'cancel', actual: 'help', line: 5, column: 22 }),
    ])
  })

  it('prints coverage with the never-exercised list and fails under --min-coverage', () => {
    const { code, stdout } = outcome('gates')
    expect(code).toBe(1)
    expect(stdout).toContain(
      [
        'coverage of shop-bot: 50%',
        '  routes         2/5   40%',
        '  states         3/4   75%',
        '  transitions    2/5   40%',
        '  never exercised:',
        '    route       help',
        '    route       confirm',
        '    route       cancel',
        '    state       done',
        '    transition  menu --HELP--> menu',
        '    transition  ordering --CONFIRM--> done',
        '    transition  ordering --CANCEL--> menu',
      ].join('\n'),
    )
    expect(stdout).toContain('✗ coverage of shop-bot is 50%, below --min-coverage 90%')
  })

  it('fails --replay-check on a clock-dependent route', () => {
    const { stdout } = outcome('gates')
    expect(stdout).toContain('✓ pass.conv.yaml › pass (2 turns)')
    expect(stdout).toMatch(/turn 1 · user "\/time" · clock\.conv\.yaml:3:5\n {6}replay check: turn 1 \(user "\/time"\) changed when re-run under a shifted clock:\n {8}reply: "It is /)
  })

  it('prints its usage with --help', () => {
    expect(outcome('help')).toMatchObject({ code: 0, stderr: '' })
    expect(outcome('help').stdout).toMatch(/^usage: chatrail test \[files, directories or globs…\] \[options\]\n/)
    expect(outcome('help').stdout).toContain('--min-coverage <N>')
  })

  it('exits 2 on usage errors and 1 when no file matches', () => {
    expect(outcome('usage').code).toBe(2)
    expect(outcome('usage').stderr).toBe('chatrail test: unknown option "--bogus"\nRun "chatrail test --help" for usage.\n')
    expect(outcome('badMin')).toMatchObject({ code: 2, stderr: 'chatrail test: --min-coverage takes a percentage from 0 to 100, got "lots"\nRun "chatrail test --help" for usage.\n' })
    expect(outcome('none').code).toBe(1)
    expect(outcome('none').stderr).toContain('no conversation files match "nothing/*.conv.yaml"')
  })
})
