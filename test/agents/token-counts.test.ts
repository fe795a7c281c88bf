import { describe, expect, it } from 'vitest'
import { createTranscriptFold } from '../../src/agents/claude-code/transcript-fold.js'
import { foldLines, tokenCount, userMessage } from './codex/rollout-builders.js'
import { transcript } from './claude-code/transcript-builder.js'

/**
 * Issue 15 item 13: token counts are non-negative finite integers. Anything else (a negative
 * count, `1e309` which JSON.parse reads as Infinity, a fraction, a string) is not passed through:
 * that reading is left out of the usage and the chat says so in `warnings`.
 */

function claudeWithUsage(usage: Record<string, unknown>) {
  const b = transcript().prompt('hi').text('hello', { id: 'msg_ok' }).prompt('again')
  const line = { ...b.text('bad', { id: 'msg_bad' }).lines.at(-1) } as Record<string, unknown>
  b.lines.pop()
  const message = line.message as Record<string, unknown>
  b.lines.push({ ...line, message: { ...message, usage } })
  const fold = createTranscriptFold()
  for (const l of b.lines) fold.push(l)
  return fold.snapshot()
}

describe('token counts: non-negative finite integers only', () => {
  it.each([
    ['a negative count', { input_tokens: -1, output_tokens: 5 }],
    ['an infinite count (1e309)', JSON.parse('{"input_tokens": 1e309, "output_tokens": 5}') as Record<string, unknown>],
    ['a fraction', { input_tokens: 10, output_tokens: 2.5 }],
    ['an unsafe integer', { input_tokens: 2 ** 60, output_tokens: 5 }],
  ])('Claude Code: a message with %s is not counted, with a warning', (_what, usage) => {
    const s = claudeWithUsage(usage)
    expect(s.usage).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheCreationTokens: 0 })
    expect(s.warnings).toEqual([expect.stringMatching(/msg_bad.*usage.*not counted/)])
  })

  it('Claude Code: a transcript whose only usage is invalid has no usage at all', () => {
    const fold = createTranscriptFold()
    const b = transcript().prompt('hi').text('hello')
    const line = b.lines.at(-1) as Record<string, unknown>
    fold.push(b.lines[0])
    fold.push({ ...line, message: { ...(line.message as object), usage: { input_tokens: -5, output_tokens: -1 } } })
    const s = fold.snapshot()
    expect(s.usage).toBeUndefined()
    expect(s.warnings).toHaveLength(1)
  })

  it.each([
    ['a negative count', { input_tokens: -1, cached_input_tokens: 0, output_tokens: 5 }],
    ['an infinite count (1e309)', 'INFINITE'],
    ['a negative cache read', { input_tokens: 100, cached_input_tokens: -50, output_tokens: 5 }],
    ['a fraction', { input_tokens: 100, cached_input_tokens: 0, output_tokens: 0.5 }],
  ])('Codex: a token_count with %s is left out, with a warning; the last valid total stays', (_what, total) => {
    // JSON.stringify cannot write 1e309, so that line is written by hand, as a file would have it.
    const bad = total === 'INFINITE' ? tokenCount({ total_token_usage: { input_tokens: 7, cached_input_tokens: 0, output_tokens: 5 } }).replace('"input_tokens":7', '"input_tokens":1e309') : tokenCount({ total_token_usage: total })
    const chat = foldLines([
      userMessage('hi'),
      tokenCount({ total_token_usage: { input_tokens: 1000, cached_input_tokens: 600, output_tokens: 50 } }),
      bad,
    ])
    expect(chat.usage).toEqual({ inputTokens: 400, outputTokens: 50, cacheReadTokens: 600 })
    expect(chat.warnings).toEqual([expect.stringMatching(/line 3: .*token.*not a non-negative integer/)])
    expect(JSON.parse(JSON.stringify(chat)).usage).toEqual(chat.usage)
  })

  it('Codex: only invalid totals means no usage', () => {
    const chat = foldLines([tokenCount({ total_token_usage: { input_tokens: -1, output_tokens: -1 } })])
    expect(chat.usage).toBeUndefined()
    expect(chat.warnings).toHaveLength(1)
  })
})
