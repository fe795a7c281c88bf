import { describe, expect, it } from 'vitest'
import { ConversationFileError, formatConversationFileError, isConversationFileError } from '../../src/testing/conversations/file-error.js'
import { parseConversationFile } from '../../src/testing/conversations/file-parse.js'

const file = '/suite/bot/refund.conv.yaml'

/** Parses and returns the issues, failing the test when the file unexpectedly parses. */
function issuesOf(source: string) {
  try {
    parseConversationFile(source, file)
  } catch (error) {
    if (isConversationFileError(error)) return error.issues
    throw error
  }
  throw new Error('expected the file to be rejected')
}

describe('parseConversationFile', () => {
  it('parses a complete file: definition path resolved, turns numbered, expectation positions kept', () => {
    const parsed = parseConversationFile(
      [
        'definition:',
        '  module: ./definition.ts',
        '  export: supportBot',
        'start: { state: menu, context: { plan: pro } }',
        'agent: ["Sure, here you go.", { error: "boom" }]',
        'turns:',
        '  - user: /refund',
        '    expect:',
        '      route: refund',
        '      modelCalls: 0',
        '  - event: confirm',
        '    label: Yes',
        '  - retry',
        '  - edit: { turn: 1, text: /help }',
        '    expect: { route: null, replyMatches: "^Sure" }',
        '  - regenerate: { turn: 2 }',
        '  - stop',
      ].join('\n'),
      file,
    )
    expect(parsed.definition).toEqual({ module: '/suite/bot/definition.ts', export: 'supportBot' })
    const [conversation] = parsed.conversations
    expect(conversation?.name).toBe('refund')
    expect(conversation?.start).toEqual({ state: 'menu', context: { plan: 'pro' } })
    expect(conversation?.agent).toEqual(['Sure, here you go.', { error: 'boom' }])
    expect(conversation?.turns.map((turn) => [turn.number, turn.step, turn.at.line])).toEqual([
      [1, { user: '/refund' }, 7],
      [2, { event: 'confirm', label: 'Yes' }, 11],
      [3, { retry: true }, 13],
      [4, { edit: { turn: 1, text: '/help' } }, 14],
      [5, { regenerate: { turn: 2 } }, 16],
      [6, { stop: true }, 17],
    ])
    expect(conversation?.turns[0]?.expectAt).toEqual({ route: { line: 9, column: 14 }, modelCalls: { line: 10, column: 19 } })
    expect(conversation?.turns[3]?.expect).toEqual({ route: null, replyMatches: '^Sure' })
  })

  it('reads several named conversations sharing file-level defaults', () => {
    const parsed = parseConversationFile(
      ['definition: { module: my-bot, export: bot }', 'start: { state: menu }', 'conversations:', '  - name: a', '    turns: [{ user: hi }]', '  - name: b', '    start: { state: idle }', '    turns: [{ user: yo }]'].join('\n'),
      file,
    )
    expect(parsed.definition).toEqual({ module: 'my-bot', export: 'bot' })
    expect(parsed.conversations.map((c) => [c.name, c.start?.state, c.at.line])).toEqual([
      ['a', 'menu', 4],
      ['b', 'idle', 6],
    ])
  })

  it('reports an unknown key at its line and column with a did-you-mean', () => {
    const issues = issuesOf(['definition: { module: ./d.ts }', 'turns:', '  - user: hi', '    expect:', '      rout: greet'].join('\n'))
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({ code: 'UNKNOWN_KEY', file, line: 5, column: 7, path: ['turns', 0, 'expect', 'rout'], message: 'turns[0].expect: unknown key "rout"' })
    expect(issues[0]?.hint).toContain('Did you mean "route"?')
  })

  it('explains a text value cut at a comma inside a flow mapping', () => {
    const issues = issuesOf(['definition: { module: ./d.ts }', 'turns:', '  - user: hi', '    expect: { reply: Yes, we ship to Norway. }'].join('\n'))
    expect(issues.map((issue) => [issue.line, issue.column, issue.message])).toEqual([[4, 27, 'turns[0].expect: unknown key "we ship to Norway."']])
    expect(issues[0]?.hint).toContain('Inside `{ … }` a comma ends the value: quote text that holds commas (reply: "a, b").')
  })

  it('reports a wrong type at the value', () => {
    const issues = issuesOf(['definition: { module: ./d.ts }', 'turns:', '  - user: hi', '    expect: { modelCalls: two }'].join('\n'))
    expect(issues).toEqual([expect.objectContaining({ line: 4, column: 27, path: ['turns', 0, 'expect', 'modelCalls'] })])
    expect(issues[0]?.message).toMatch(/^turns\[0\]\.expect\.modelCalls: .*expected number/)
  })

  it('reports YAML syntax errors at their place', () => {
    const issues = issuesOf(['definition: { module: ./d.ts }', 'turns:', '  - user: hi: there', '  - user: x'].join('\n'))
    expect(issues).toEqual([expect.objectContaining({ code: 'YAML_SYNTAX', line: 3, column: 11, message: 'Nested mappings are not allowed in compact mappings' })])
  })

  it('places a missing key at the mapping that should hold it', () => {
    const issues = issuesOf(['name: x', 'turns:', '  - user: hi'].join('\n'))
    expect(issues).toEqual([expect.objectContaining({ path: ['definition'], line: 1, column: 1 })])
  })

  it('rejects a turn with two steps, and one with none, naming the turn', () => {
    const issues = issuesOf(['definition: { module: ./d.ts }', 'turns:', '  - user: hi', '    event: go', '  - usr: hi'].join('\n'))
    expect(issues.map((issue) => [issue.line, issue.column, issue.message])).toEqual([
      [3, 5, 'turn 1 needs exactly one of user, event, retry, regenerate, edit, stop; found user and event.'],
      [5, 5, 'turn 2 needs exactly one of user, event, retry, regenerate, edit, stop; found none (keys: usr). Did you mean "user"?'],
    ])
  })

  it('checks turn references, stop placement, reply/replyMatches and regular expressions', () => {
    const issues = issuesOf(
      [
        'definition: { module: ./d.ts }',
        'turns:',
        '  - stop',
        '  - user: hi',
        '  - retry',
        '  - edit: { turn: 3, text: x }',
        '  - regenerate: { turn: 9 }',
        '  - user: y',
        '    expect: { reply: a, replyMatches: "(" }',
      ].join('\n'),
    )
    expect(issues.map((issue) => [issue.code, issue.line, issue.column])).toEqual([
      ['STOP_WITHOUT_TURN', 3, 5],
      ['BAD_TURN_REFERENCE', 6, 19],
      ['BAD_TURN_REFERENCE', 7, 25],
      ['REPLY_TWICE', 9, 39],
      ['BAD_REGEX', 9, 39],
    ])
    expect(issues[1]?.message).toBe('turn 4: edit.turn 3 is `retry`, not a user or event turn')
    expect(issues[1]?.hint).toBe('Turns are numbered from 1; the earlier user/event turns are 2.')
  })

  it('needs turns or conversations, not both; rejects duplicate names and agent+cassette', () => {
    expect(issuesOf('definition: { module: ./d.ts }')[0]?.code).toBe('TURNS_OR_CONVERSATIONS')
    const issues = issuesOf(
      ['definition: { module: ./d.ts }', 'conversations:', '  - name: a', '    agent: [hi]', '    cassette: a.json', '    turns: [{ user: hi }]', '  - name: a', '    turns: [{ user: hi }]'].join('\n'),
    )
    expect(issues.map((issue) => [issue.code, issue.line])).toEqual([
      ['AGENT_AND_CASSETTE', 5],
      ['DUPLICATE_NAME', 7],
    ])
  })

  it('is a ChatrailError whose message starts with file:line:column, and formats every issue', () => {
    let caught: unknown
    try {
      parseConversationFile('definition: { module: ./d.ts }\nturns:\n  - user: hi\n    expect: { kind: magic }\n', file)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConversationFileError)
    const error = caught as ConversationFileError
    expect(error.code).toBe('CONVERSATION_FILE_INVALID')
    expect(error.message).toMatch(/^\/suite\/bot\/refund\.conv\.yaml:4:21: turns\[0\]\.expect\.kind: /)
    expect(formatConversationFileError(error)).toMatch(/^\/suite\/bot\/refund\.conv\.yaml:4:21 {2}turns\[0\]\.expect\.kind/)
  })
})
