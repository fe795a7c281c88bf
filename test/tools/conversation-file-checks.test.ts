import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseConversationFile } from '../../src/testing/conversations/file-parse.js'
import { runConversationFile } from '../../src/testing/conversations/run-file.js'
import { formatSuiteReport } from '../../src/testing/conversations/suite-report.js'
import { runConversationSuite } from '../../src/testing/conversations/run-suite.js'
import { conversationDir } from '../testing/support/conversation-dir.js'

/**
 * Conversation-file mistakes that used to pass or fail silently (issue 19 item 5): an expected
 * route id the definition does not have, and a text YAML cut at an unquoted ` #`.
 */

const lostCardModule = resolve('test/tools/fixtures/lost-card.ts')
const header = `definition: { module: ${lostCardModule}, export: lostCard }`

describe('a text cut by an unquoted " #"', () => {
  const parse = (lines: string[]) => parseConversationFile(`${[header, ...lines].join('\n')}\n`, '/tmp/cut.conv.yaml')

  it('warns at the text, saying what is sent and how to quote it', () => {
    const parsed = parse(['turns:', '  - user: /start', '  - user: my card ends #4821', '    expect: { state: confirm }'])
    expect(parsed.conversations[0]?.turns[1]?.step).toEqual({ user: 'my card ends' })
    expect(parsed.warnings).toEqual([
      {
        code: 'TEXT_CUT_BY_COMMENT',
        file: '/tmp/cut.conv.yaml',
        line: 4,
        column: 11,
        path: ['turns', 1, 'user'],
        message: 'turns[1].user: the text ends at " #": YAML reads the rest as a comment, so this sends "my card ends"',
        hint: 'Quote the text to keep the "#": user: "my card ends #4821". (A comment written "# …", with a space, is taken as meant.)',
      },
    ])
  })

  it('checks edited texts too, and leaves quoted texts and spaced comments alone', () => {
    const parsed = parse(['turns:', '  - user: "ends #4821"', '  - user: /start  # begin', '  - edit:', '      turn: 1', '      text: ends #99'])
    expect(parsed.warnings.map((warning) => warning.path)).toEqual([['turns', 2, 'edit', 'text']])
  })

  it('is printed by the chatrail test report, without failing the file', async () => {
    const dir = conversationDir({ 'cut.conv.yaml': [header, 'turns:', '  - user: /start', '  - user: ends #4821', '    expect: { route: last4 }'] })
    const suite = await runConversationSuite([join(dir, 'cut.conv.yaml')])
    expect(suite.passed).toBe(false)
    const report = formatSuiteReport(suite, { cwd: dir })
    expect(report).toContain('⚠ cut.conv.yaml:4:11  turns[1].user: the text ends at " #"')
    // The cut text ("ends") has no four digits: the route expectation fails, and says why.
    expect(report).toContain('no route matched: "ends" in state "identify"')
  })
})

describe('an expected route the definition does not have', () => {
  it('fails before running, at the expectation, with a did-you-mean', async () => {
    const dir = conversationDir({ 'typo.conv.yaml': [header, 'turns:', '  - user: /start', '    expect: { route: strat }', '  - user: "4821"', '    expect: { route: last-4 }'] })
    const result = await runConversationFile(join(dir, 'typo.conv.yaml'))
    expect(result.passed).toBe(false)
    const failures = result.conversations[0]?.failures ?? []
    expect(failures.map((failure) => [failure.turn, failure.line, failure.message])).toEqual([
      [1, 4, 'expect.route "strat" is not a route of lost-card; did you mean "start"? (routes: faq-fees, start, last4, yes, yes-button, vip, help, cancel, again, anything)'],
      [2, 6, 'expect.route "last-4" is not a route of lost-card; did you mean "last4"? (routes: faq-fees, start, last4, yes, yes-button, vip, help, cancel, again, anything)'],
    ])
    expect(result.conversations[0]?.turns).toEqual([])
  })

  it('lets `route: null` (no route answers) and known ids through', async () => {
    const dir = conversationDir({ 'ok.conv.yaml': [header, 'turns:', '  - user: /start', '    expect: { route: start }', '  - user: hello', '    expect: { route: null }'] })
    const result = await runConversationFile(join(dir, 'ok.conv.yaml'))
    expect(result.conversations[0]?.failures).toEqual([])
    expect(result.passed).toBe(true)
  })
})
