import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliBundle } from '../support/cli-bundle.js'

/**
 * `chatrail explain` as users run it (a spawned CLI), in the states where the turn is not "a route
 * fires" (issue 27 item 1): a form taking a slot, a re-prompt, a restart, a stale UI event. It used
 * to print "no route matched" there, implying the agent answers.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
// the CLI built once and started with plain node (test/support/cli-bundle.ts); the TypeScript
// definition still loads through tsx's loader, which the CLI registers itself as for an installed chatrail
const cli = await cliBundle()
const explain = (...args: string[]) =>
  spawnSync(process.execPath, [cli, 'explain', 'test/conversation/fixtures/form-bot.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 })

describe('chatrail explain explains forms, refusals, restarts and stale UI events', () => {
  it('a form filling its last slot: form-complete, with the transition it fires', () => {
    const { status, stdout } = explain('AB1 2CD', '--state', 'identify', '--context', '{"digits":"1234"}')
    expect(status).toBe(0)
    expect(stdout.split('\n')[0]).toBe('"AB1 2CD" in state "identify": no route matched; the form of "identify" takes it as its last slot "postcode" and fires "identified" → "confirm"')
  }, 90_000)

  it('--json carries the decided outcome next to the routes', () => {
    const { status, stdout } = explain('1234', '--state', 'identify', '--json')
    expect(status).toBe(0)
    const printed = JSON.parse(stdout) as { outcome: unknown; routes: unknown[] }
    expect(printed.outcome).toEqual({ kind: 'slot-filled', toState: 'identify', outcome: 'ok', reason: 'slot-filled', slot: 'digits', detail: 'the form of "identify" takes it as slot "digits" and asks the next slot' })
    expect(printed.routes.length).toBeGreaterThan(0)
  }, 90_000)

  it('a refusal, a restart and a stale UI event', () => {
    expect(explain('yes', '--state', 'confirm').stdout.split('\n')[0]).toBe(
      '"yes" in state "confirm": route "yes" takes it: it answers its re-prompt (`refuse`): the machine refused "confirm" (transition-refused:guard-refused), nothing changes',
    )
    expect(explain('/again', '--state', 'done').stdout.split('\n')[0]).toBe('"/again" in state "done": route "again" answers (it starts over)')
    expect(explain('--event', 'confirm', '--state', 'greeting').stdout.split('\n')[0]).toBe(
      'UI event "confirm" in state "greeting": no route matched; a route knows this UI event, but not in this state: conversation.unavailable answers, nothing changes',
    )
  }, 90_000)
})
