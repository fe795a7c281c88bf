import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette } from '../../src/testing/cassette.js'
import { runConversationFile } from '../../src/testing/conversations/run-file.js'
import { runConversationSuite } from '../../src/testing/conversations/run-suite.js'
import { formatSuiteReport } from '../../src/testing/conversations/suite-report.js'
import { clockBotModule, conversationDir, shopBotModule } from './support/conversation-dir.js'

const shop = `definition: { module: ${shopBotModule}, export: shopBot }`

describe('runConversationFile', () => {
  it('passes a conversation whose expectations hold, with scripted agent replies', async () => {
    const dir = conversationDir({
      'ok.conv.yaml': [
        shop,
        'agent: ["Happy to help."]',
        'turns:',
        '  - user: /start',
        '    expect: { route: start, kind: deterministic, state: menu, reply: "Welcome! Type /help or order something.", modelCalls: 0 }',
        '  - user: what is this?',
        '    expect: { route: null, kind: agentic, replyMatches: "^Happy", modelCalls: 1 }',
        '  - user: order tea',
        '    expect: { state: ordering, context: { item: tea } }',
        '  - retry',
        '  - regenerate:',
        '    expect: { replayed: true, modelCalls: 0 }',
        '  - event: confirm',
        '    expect: { state: done, context: { orders: 1 } }',
      ],
    })
    const result = await runConversationFile(join(dir, 'ok.conv.yaml'))
    expect(result.passed).toBe(true)
    expect(result.conversations.map((c) => [c.name, c.passed, c.turns.length, c.failures])).toEqual([['ok', true, 6, []]])
  })

  it('fails a wrong expectation at its line and column, with expected, actual and the trace', async () => {
    const dir = conversationDir({
      'wrong.conv.yaml': [shop, 'turns:', '  - user: /start', '  - user: /help', '    expect:', '      route: cancel', '      state: ordering', '      context: { item: tea }'],
    })
    const result = await runConversationFile(join(dir, 'wrong.conv.yaml'))
    const [conversation] = result.conversations
    expect(conversation?.passed).toBe(false)
    expect(conversation?.failures.map((f) => [f.turn, f.field, f.line, f.column, f.message])).toEqual([
      [2, 'route', 6, 14, 'route: expected "cancel", got "help"'],
      [2, 'state', 7, 14, 'state: expected "ordering", got "menu"'],
      [2, 'context', 8, 16, 'context differs:\n  item: expected "tea", received null'],
    ])
    expect(formatSuiteReport(await runConversationSuite([join(dir, 'wrong.conv.yaml')]), { cwd: dir })).toBe(
      [
        '✗ wrong.conv.yaml › wrong (2 turns)',
        '    turn 2 · user "/help" · wrong.conv.yaml:6:14',
        '      route: expected "cancel", got "help"',
        '      state: expected "ordering", got "menu"',
        '      context differs:',
        '        item: expected "tea", received null',
        '      trace: deterministic ok · route help · event HELP · menu → menu',
        '',
        'FAIL  conversations: 0 passed, 1 failed (1 file)',
      ].join('\n'),
    )
  })

  it('fails unused agent replies, unexpected turn errors and a start state that does not exist', async () => {
    const dir = conversationDir({
      'agent.conv.yaml': [shop, 'agent: ["one", "two"]', 'turns:', '  - user: hi'],
      'error.conv.yaml': [shop, 'agent: [{ error: "model down" }]', 'turns:', '  - user: hi', '  - user: hi again', '    expect: { error: true }'],
      'start.conv.yaml': [shop, 'start: { state: orderin }', 'turns:', '  - user: hi'],
    })
    const [agent, error, start] = await Promise.all(['agent', 'error', 'start'].map((name) => runConversationFile(join(dir, `${name}.conv.yaml`))))
    expect(agent?.conversations[0]?.failures.map((f) => [f.line, f.column])).toEqual([[2, 16]])
    expect(agent?.conversations[0]?.failures.map((f) => f.message)).toEqual(['agent: reply #2 ("two") was never used: the conversation made 1 agentic call(s)'])
    const errorFailures = error?.conversations[0]?.failures ?? []
    expect(errorFailures.map((f) => [f.turn, f.field])).toEqual([
      [1, 'error'],
      [undefined, undefined],
    ])
    expect(errorFailures[0]?.message).toMatch(/^error: the turn failed: /)
    // Turn 2 expected a failure and got one (the strict script had no reply left), which the conversation reports too.
    expect(errorFailures[1]?.message).toMatch(/^agent: the conversation made 2 agentic call\(s\), but only 1 reply is scripted/)
    expect(start?.conversations[0]?.failures.map((f) => [f.line, f.column])).toEqual([[2, 17]])
    expect(start?.conversations[0]?.failures.map((f) => f.message)).toEqual(['start.state "orderin" is not a state of shop-bot; did you mean "ordering"? (states: idle, menu, ordering, done)'])
  })

  it('reports an invalid file or a definition that does not load as issues, not a crash', async () => {
    const dir = conversationDir({
      'bad.conv.yaml': [shop, 'turns:', '  - user: hi', '    expect: { rout: start }'],
      'export.conv.yaml': [`definition: { module: ${shopBotModule}, export: shopbot }`, 'turns:', '  - user: hi'],
      'module.conv.yaml': ['definition: { module: ./missing.ts }', 'turns:', '  - user: hi'],
    })
    const bad = await runConversationFile(join(dir, 'bad.conv.yaml'))
    expect(bad.issues?.map((issue) => [issue.line, issue.column, issue.message])).toEqual([[4, 15, 'turns[0].expect: unknown key "rout"']])
    const exported = await runConversationFile(join(dir, 'export.conv.yaml'))
    expect(exported.issues?.[0]).toMatchObject({ code: 'DEFINITION_EXPORT_MISSING', message: `module ${shopBotModule} has no export "shopbot"`, hint: 'Did you mean "shopBot"? Definitions exported there: shopBot.' })
    const missing = await runConversationFile(join(dir, 'module.conv.yaml'))
    expect(missing.issues?.[0]).toMatchObject({ code: 'DEFINITION_MODULE_FAILED' })
    expect(missing.issues?.[0]?.message).toContain(`cannot load definition module ${join(dir, 'missing.ts')}`)
  })

  it('answers agentic turns from a cassette and fails when the conversation drifted from it', async () => {
    const cassette = JSON.stringify({
      version: 1,
      interactions: [{ request: { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: '' }] }, chunks: [{ type: 'text', content: 'Recorded hello.' }, { type: 'done' }] }],
    })
    const dir = conversationDir({
      'hello.cassette.json': [cassette],
      'replay.conv.yaml': [shop, 'cassette: ./hello.cassette.json', 'turns:', '  - user: hi', '    expect: { reply: Recorded hello., modelCalls: 1 }'],
      'drift.conv.yaml': [shop, 'cassette: ./hello.cassette.json', 'turns:', '  - user: hello', '    expect: { error: matches no recording }'],
    })
    expect((await runConversationFile(join(dir, 'replay.conv.yaml'))).passed).toBe(true)
    const drift = await runConversationFile(join(dir, 'drift.conv.yaml'))
    expect(drift.conversations[0]?.failures.map((f) => f.message)).toEqual(['cassette: 1 recorded interaction(s) were never requested; record the cassette again'])
  })

  it('records a cassette from the definition\'s own adapter with record, then replays it offline', async () => {
    const dir = conversationDir({ 'rec.conv.yaml': [shop, 'cassette: ./rec.cassette.json', 'turns:', '  - user: /start', '  - user: anything new?', '    expect: { reply: I am the agent., modelCalls: 1 }'] })
    const file = join(dir, 'rec.conv.yaml')
    expect((await runConversationFile(file)).conversations[0]?.failures[0]?.message).toMatch(/^cannot read cassette .*rec\.cassette\.json/)
    expect((await runConversationFile(file, { record: true })).passed).toBe(true)
    expect(readCassette(join(dir, 'rec.cassette.json')).interactions.map((i) => [i.request.messages.map((m) => m.content), i.chunks])).toEqual([
      [['/start', 'Welcome! Type /help or order something.', 'anything new?', ''], [{ type: 'text', content: 'I am the agent.' }, { type: 'done' }]],
    ])
    expect((await runConversationFile(file)).passed).toBe(true)
  })

  it('fails the replay check of a clock-dependent route at its turn', async () => {
    const dir = conversationDir({ 'clock.conv.yaml': [`definition: { module: ${clockBotModule}, export: clockBot }`, 'turns:', '  - user: /ping', '  - user: /time'] })
    const plain = await runConversationFile(join(dir, 'clock.conv.yaml'))
    expect(plain.passed).toBe(true)
    const checked = await runConversationFile(join(dir, 'clock.conv.yaml'), { replayCheck: true })
    const [failure] = checked.conversations[0]?.failures ?? []
    expect(checked.conversations[0]?.failures).toHaveLength(1)
    expect([failure?.turn, failure?.line]).toEqual([2, 4])
    expect(failure?.message).toMatch(/^replay check: turn 2 \(user "\/time"\) changed when re-run under a shifted clock:\n {2}reply: "It is .*" ≠ "It is .*"$/)
  })
})

describe('runConversationSuite', () => {
  it('pools coverage per definition and fails below --min-coverage', async () => {
    const dir = conversationDir({
      'a.conv.yaml': [shop, 'turns:', '  - user: /start', '  - user: order tea'],
      'b.conv.yaml': [shop, 'turns:', '  - user: /start', '  - user: /help'],
    })
    const files = [join(dir, 'a.conv.yaml'), join(dir, 'b.conv.yaml')]
    const result = await runConversationSuite(files, { coverage: true })
    expect(result.passed).toBe(true)
    expect(result.coverage?.map((report) => [report.definitionId, report.routes.exercised, report.states.exercised, report.transitions.exercised])).toEqual([['shop-bot', 3, 3, 3]])
    const strict = await runConversationSuite(files, { minCoverage: 80 })
    expect([strict.passed, strict.belowMinCoverage]).toEqual([false, ['shop-bot']])
    expect(formatSuiteReport(strict, { cwd: dir, minCoverage: 80 })).toContain('✗ coverage of shop-bot is 64.2%, below --min-coverage 80%')
  })
})
