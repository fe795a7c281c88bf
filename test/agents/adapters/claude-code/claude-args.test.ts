import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildClaudeArgs, claudeUserMessageLine } from '../../../../src/agents/claude-code/adapter/claude-args.js'

const FIXED = new Set(['-p', '--output-format', 'stream-json', '--input-format', '--verbose', '--permission-prompt-tool', 'stdio', '--include-partial-messages'])

describe('buildClaudeArgs', () => {
  it('builds the headless stream-json command, resuming and configuring with --flag=value', () => {
    expect(
      buildClaudeArgs({
        resumeId: '3daacb46-c1fd-474e-a0a7-57c99971ef09',
        model: 'sonnet',
        permissionMode: 'acceptEdits',
        allowedTools: ['Read', 'Bash(git diff:*)'],
        includePartialMessages: true,
        appendSystemPrompt: 'Be brief.',
        extraArgs: ['--bare'],
      }),
    ).toEqual([
      '--bare',
      '-p',
      '--output-format',
      'stream-json',
      '--input-format',
      'stream-json',
      '--verbose',
      '--permission-prompt-tool',
      'stdio',
      '--include-partial-messages',
      '--resume=3daacb46-c1fd-474e-a0a7-57c99971ef09',
      '--model=sonnet',
      '--permission-mode=acceptEdits',
      '--allowedTools=Read,Bash(git diff:*)',
      '--append-system-prompt=Be brief.',
    ])
    expect(buildClaudeArgs({ includePartialMessages: false })).not.toContain('--include-partial-messages')
  })

  it('never lets a configured value stand alone as an argument, whatever it holds (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }), fc.string(), (model, mode, tools, system) => {
        const args = buildClaudeArgs({ model, permissionMode: mode, allowedTools: tools, appendSystemPrompt: system, includePartialMessages: true })
        for (const arg of args) expect(FIXED.has(arg) || /^--(model|permission-mode|allowedTools|append-system-prompt)=/.test(arg), arg).toBe(true)
      }),
    )
  })

  it('sends the prompt as one stream-json user message line, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const line = claudeUserMessageLine(text)
        expect(line).not.toContain('\n')
        expect(JSON.parse(line)).toEqual({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null })
      }),
    )
  })
})
