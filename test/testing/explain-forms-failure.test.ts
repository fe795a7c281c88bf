import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatSuiteReport } from '../../src/testing/conversations/suite-report.js'
import { runConversationSuite } from '../../src/testing/conversations/run-suite.js'
import { runConversation } from '../../src/testing/index.js'
import { chatrailMatchers } from '../../src/testing/matchers.js'
import { formBot } from '../conversation/fixtures/form-bot.js'
import { conversationDir } from './support/conversation-dir.js'

/**
 * Issue 27 item 1: when a `route:` expectation (or `toRoute`) fails because no route answered, the
 * explanation says what the session did instead. In a form state that is the form taking a slot:
 * the message used to read "no route matched" and nothing else, as if the agent had answered.
 */

const header = `definition: { module: ${resolve('test/conversation/fixtures/form-bot.ts')}, export: formBot }`

describe('a failed route expectation in a form state', () => {
  it('chatrail test says the form took the message (and which slot), not only that no route matched', async () => {
    const dir = conversationDir({
      'form.conv.yaml': [header, 'turns:', '  - user: /start', '  - user: "1234"', '    expect: { route: start }', '  - user: "ab1 2cd"', '    expect: { route: start }', '  - user: nonsense', '    expect: { route: help }'],
    })
    const suite = await runConversationSuite([join(dir, 'form.conv.yaml')])
    const report = formatSuiteReport(suite, { cwd: dir })
    expect(report).toContain('no route matched: "1234" in state "identify"; the form of "identify" takes it as slot "digits" and asks the next slot')
    expect(report).toContain('no route matched: "ab1 2cd" in state "identify"; the form of "identify" takes it as its last slot "postcode" and fires "identified" → "confirm"')
    expect(report).toContain('no route matched: "nonsense" in state "confirm"; the agent answers')
  })

  it('toRoute says it too, for a re-prompted invalid answer', async () => {
    const run = await runConversation(formBot, [{ user: '/start' }, { user: '12' }])
    const result = chatrailMatchers.toRoute.call({ isNot: false } as never, run.turns[1], 'start') as { pass: boolean; message: () => string }
    expect(result.pass).toBe(false)
    expect(result.message()).toContain('no route matched: "12" in state "identify"; it is not a valid answer for slot "digits" of the form of "identify": the form re-prompts (attempt 1)')
    expect(run.turns[1]?.explanation?.outcome).toMatchObject({ kind: 'invalid-slot', slot: 'digits', outcome: 'refused', reason: 'invalid-slot' })
  })
})
