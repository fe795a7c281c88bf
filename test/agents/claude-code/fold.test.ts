import { describe, expect, it } from 'vitest'
import { createTranscriptFold } from '../../../src/agents/claude-code/transcript-fold.js'
import type { FoldSnapshot } from '../../../src/agents/claude-code/transcript-fold.js'
import { askInput, SESSION, transcript } from './transcript-builder.js'
import type { Line, TranscriptBuilder } from './transcript-builder.js'

function fold(input: TranscriptBuilder | Line[]): FoldSnapshot {
  const f = createTranscriptFold()
  for (const line of Array.isArray(input) ? input : input.lines) f.push(line)
  return f.snapshot()
}

describe('transcript fold: states (run-state-readers §8 items 24–34)', () => {
  it('24: an empty transcript is idle', () => {
    expect(fold([])).toMatchObject({ state: 'idle', status: 'idle', messages: [] })
  })

  it('25: a user text tail is working', () => {
    expect(fold(transcript().prompt('hi'))).toMatchObject({ state: 'working', status: 'running' })
  })

  it('26: user text then a finished assistant text is needs_input / completed', () => {
    const s = fold(transcript().prompt('hi').text('hello'))
    expect(s).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(s.messages.map((m) => [m.seq, m.kind, m.role, m.text])).toEqual([
      [1, 'text', 'user', 'hi'],
      [2, 'text', 'assistant', 'hello'],
    ])
  })

  it('a text without any end marker (pre-2.1.19x null stop_reason) is needs_input but status unknown, not completed', () => {
    expect(fold(transcript().prompt('hi').text('hello', { stop: null }))).toMatchObject({ state: 'needs_input', status: 'unknown' })
    expect(fold(transcript().prompt('hi').text('hello', { stop: null }).system('turn_duration', { durationMs: 10 }))).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(fold(transcript().prompt('hi').text('hello', { stop: null }).system('stop_hook_summary'))).toMatchObject({ status: 'completed' })
  })

  it('27: a running tool_use tail is working, naming the tool', () => {
    const s = fold(transcript().prompt('hi').toolUse('t1', 'Bash', { command: 'ls' }))
    expect(s).toMatchObject({ state: 'working', status: 'running', detail: 'running Bash' })
    expect(s.messages[1]?.tool).toEqual({ id: 't1', name: 'Bash', input: { command: 'ls' }, status: 'running' })
  })

  it('beats the tail guess: a text written with stop_reason tool_use (its tool_use not landed yet) is working, not needs_input', () => {
    expect(fold(transcript().prompt('hi').text('Let me look.', { stop: 'tool_use' }))).toMatchObject({ state: 'working', status: 'streaming' })
  })

  it('a tool_result patches its tool chip (ok / error) and keeps working', () => {
    const s = fold(transcript().prompt('hi').toolUse('t1', 'Bash', {}).toolResult('t1', 'out').toolUse('t2', 'Read', {}).toolResult('t2', 'boom', { isError: true }))
    expect(s.messages.filter((m) => m.kind === 'tool').map((m) => [m.tool?.status, m.tool?.output])).toEqual([
      ['ok', 'out'],
      ['error', 'boom'],
    ])
    expect(s.state).toBe('working')
  })

  it('28: command echoes alone are idle (/clear echo, <command-message>-led, bare stdout)', () => {
    expect(fold(transcript().echo('/clear'))).toMatchObject({ state: 'idle', status: 'idle' })
    expect(fold(transcript().userBlocks([{ type: 'text', text: '<command-message>clear</command-message>\n<command-name>/clear</command-name>' }]))).toMatchObject({ state: 'idle' })
    expect(fold(transcript().prompt('<local-command-stdout></local-command-stdout>'))).toMatchObject({ state: 'idle', messages: [] })
  })

  it('29: an unresolved AskUserQuestion tail is question, and the dialog stays in messages', () => {
    const s = fold(transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput))
    expect(s).toMatchObject({ state: 'question', status: 'waiting_for_input' })
    expect(s.messages.at(-1)).toMatchObject({ kind: 'dialog', dialog: { toolId: 'q1', kind: 'question', prompt: 'Which color do you prefer?', answerable: true } })
    expect(s.messages.at(-1)?.dialog?.outcome).toBeUndefined()
  })

  it('29b: an unresolved ExitPlanMode tail is question / waiting_for_approval with the full plan', () => {
    const plan = `# Plan\n\n${'step\n'.repeat(2000)}`
    const s = fold(transcript().prompt('plan').toolUse('p1', 'ExitPlanMode', { plan, planFilePath: '/p.md' }))
    expect(s).toMatchObject({ state: 'question', status: 'waiting_for_approval', detail: 'plan approval' })
    expect(s.messages.at(-1)?.dialog?.prompt).toBe(plan)
  })

  it('30: a resolved dialog at the tail is working (the agent resumes)', () => {
    const s = fold(transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput).toolResult('q1', 'answered', { result: { questions: askInput.questions, answers: { 'Which color do you prefer?': 'Red' } } }))
    expect(s.state).toBe('working')
  })

  it('31: turns followed by an echo and its stdout stay needs_input (echoes never change state)', () => {
    expect(fold(transcript().prompt('hi').text('hello').echo('/mcp', '', 'No MCP servers configured'))).toMatchObject({ state: 'needs_input', status: 'completed' })
  })

  it('32: an echo renders as user text, args as "/foo bar baz", non-empty stdout as a lifecycle line, empty stdout as nothing', () => {
    const s = fold(transcript().echo('/foo', 'bar baz', 'done').echo('/clear', '', ''))
    expect(s.messages.map((m) => [m.kind, m.role, m.text])).toEqual([
      ['text', 'user', '/foo bar baz'],
      ['lifecycle', 'system', 'done'],
      ['text', 'user', '/clear'],
    ])
    const withReply = fold(transcript().echo('/clear').prompt('go').text('ok', { stop: 'tool_use' }))
    expect(withReply.messages).toHaveLength(3)
    expect(withReply.state).toBe('working')
  })

  it('a /exit echo ends the session', () => {
    expect(fold(transcript().prompt('hi').text('hello').echo('/exit', '', 'Bye!'))).toMatchObject({ state: 'ended', status: 'stopped' })
  })

  it('isMeta lines, the caveat and sidechain lines stay out of the main stream', () => {
    const s = fold(
      transcript()
        .prompt('<local-command-caveat>Caveat: …</local-command-caveat>', { isMeta: true })
        .prompt('skill expansion', { isMeta: true })
        .prompt('hi')
        .text('side work', { extra: { isSidechain: true } })
        .text('hello'),
    )
    expect(s.messages.map((m) => m.text)).toEqual(['hi', 'hello'])
  })

  it('metadata records never move state', () => {
    const s = fold(
      transcript()
        .prompt('hi')
        .text('hello')
        .meta({ type: 'last-prompt', lastPrompt: 'hi', sessionId: SESSION })
        .meta({ type: 'ai-title', aiTitle: 'x' })
        .meta({ type: 'permission-mode', permissionMode: 'plan' })
        .meta({ type: 'file-history-snapshot', messageId: 'm', snapshot: {} })
        .meta({ type: 'queue-operation', operation: 'enqueue', content: 'typed while busy' })
        .meta({ type: 'brand-new-record-type', whatever: true })
        .system('informational', { content: 'fyi' }),
    )
    expect(s).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(s.messages).toHaveLength(2)
  })

  it('an interrupt marker ends the turn: needs_input / stopped, open tools closed, open dialogs dismissed', () => {
    const s = fold(transcript().prompt('go').toolUse('t1', 'Bash', {}).interrupt())
    expect(s).toMatchObject({ state: 'needs_input', status: 'stopped', detail: 'interrupted by the user' })
    expect(s.messages[1]?.tool?.status).toBe('error')
    expect(s.messages.at(-1)).toMatchObject({ kind: 'lifecycle', text: '[Request interrupted by user]' })
    const dialog = fold(transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput).interrupt(true))
    expect(dialog.messages.find((m) => m.kind === 'dialog')?.dialog?.outcome).toEqual({ dismissed: true, approved: false })
  })

  it('an API error is needs_input / failed with the error as detail; a later prompt clears it', () => {
    const s = fold(transcript().prompt('hi').apiError("API Error: 429 You've hit your limit · resets 5pm"))
    expect(s).toMatchObject({ state: 'needs_input', status: 'failed', detail: "API Error: 429 You've hit your limit · resets 5pm" })
    expect(s.messages.at(-1)).toMatchObject({ kind: 'lifecycle', role: 'system' })
    expect(fold(transcript().prompt('hi').apiError('API Error: 500').prompt('again'))).toMatchObject({ state: 'working', status: 'running' })
  })

  it('max_tokens and the output-cap API error are blocked', () => {
    expect(fold(transcript().prompt('hi').text('cut off', { stop: 'max_tokens' }))).toMatchObject({ state: 'needs_input', status: 'blocked' })
    expect(fold(transcript().prompt('hi').apiError("API Error: Claude's response exceeded the 32000 output token maximum.", 'max_output_tokens'))).toMatchObject({ status: 'blocked' })
  })

  it('an API retry notice keeps working with a detail', () => {
    expect(fold(transcript().prompt('hi').system('api_error', { retryAttempt: 2, maxRetries: 10, retryInMs: 1000 }))).toMatchObject({ state: 'working', detail: 'retrying after an API error (attempt 2 of 10)' })
  })

  it('a compaction boundary renders as a lifecycle line and is state-neutral', () => {
    const s = fold(transcript().prompt('hi').text('hello').system('compact_boundary', { compactMetadata: { trigger: 'manual', preTokens: 100 } }).prompt('summary…', { isCompactSummary: true }))
    expect(s).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(s.messages.at(-1)).toMatchObject({ kind: 'lifecycle', text: 'Conversation compacted (manual)' })
  })

  it('thinking becomes a thinking message; empty (redacted) thinking is dropped', () => {
    const s = fold(transcript().prompt('hi').thinking('hmm', { id: 'm1' }).thinking('', { id: 'm2' }))
    expect(s.messages.map((m) => [m.kind, m.text])).toEqual([
      ['text', 'hi'],
      ['thinking', 'hmm'],
    ])
    expect(s.state).toBe('working')
  })
})

describe('transcript fold: one API message over several lines', () => {
  it('merges consecutive blocks of one kind and counts usage once per message', () => {
    const t = transcript().prompt('hi')
    t.text('part one', { id: 'msg_A', stop: 'tool_use' }).text('part two', { id: 'msg_A', stop: 'tool_use' }).toolUse('t1', 'Bash', {}, { msgId: 'msg_A' })
    const s = fold(t)
    expect(s.messages.map((m) => [m.kind, m.text ?? m.tool?.name])).toEqual([
      ['text', 'hi'],
      ['text', 'part one\n\npart two'],
      ['tool', 'Bash'],
    ])
    expect(s.usage).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheCreationTokens: 0 })
  })

  it('keeps text blocks separated by a tool_use as separate messages, and sums usage across API messages', () => {
    const t = transcript().prompt('hi').text('a', { id: 'm1', stop: 'tool_use' }).toolUse('t1', 'Bash', {}, { msgId: 'm1' }).toolResult('t1', 'ok').text('b', { id: 'm2' })
    const s = fold(t)
    expect(s.messages.map((m) => m.text ?? m.tool?.name)).toEqual(['hi', 'a', 'Bash', 'b'])
    expect(s.usage?.outputTokens).toBe(10)
  })

  it('drops a duplicated line (same uuid) instead of rendering it twice', () => {
    const t = transcript().prompt('hi').text('hello')
    const s = fold([...t.lines, t.lines[1] as Line])
    expect(s.messages).toHaveLength(2)
  })
})

describe('transcript fold: logical order', () => {
  it('puts assistant lines written before their prompt after it (2.1.197 writes them out of order)', () => {
    const t = transcript().prompt('make a file').raw({}).text('Running.', { stop: 'tool_use' }).toolUse('t1', 'Bash', {})
    const [prompt, , text, tool] = t.lines as [Line, Line, Line, Line]
    const s = fold([text, tool, { type: 'file-history-snapshot' }, prompt])
    expect(s.messages.map((m) => m.text ?? m.tool?.name)).toEqual(['make a file', 'Running.', 'Bash'])
    expect(s.state).toBe('working')
  })

  it('shows lines whose parent has not appeared yet (provisionally, at the end) and reorders once it does', () => {
    const t = transcript().prompt('q').text('a')
    const [prompt, answer] = t.lines as [Line, Line]
    const f = createTranscriptFold()
    f.push(answer)
    expect(f.snapshot().messages.map((m) => m.text)).toEqual(['a'])
    f.push(prompt)
    expect(f.snapshot().messages.map((m) => [m.seq, m.text])).toEqual([
      [1, 'q'],
      [2, 'a'],
    ])
  })

  it('a parent that never comes does not hold the file back: lines commit in file order past the hold limit', () => {
    const t = transcript()
    for (let i = 0; i < 100; i += 1) t.prompt(`p${i}`).text(`a${i}`)
    const lines = t.lines.slice(1) // the first line's child now dangles
    const s = fold(lines)
    expect(s.messages).toHaveLength(199)
    expect(s.messages[0]?.text).toBe('a0')
    expect(s.messages.at(-1)?.text).toBe('a99')
  })

  it('takes the session id from the records', () => {
    expect(fold(transcript().prompt('hi')).sessionId).toBe(SESSION)
  })
})
