import { describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { PLAN_MARKDOWN } from './cli-scenarios.js'
import { recordedFixture, recordedFixtureNames } from './recorded-fixtures.js'

/**
 * The snapshots recorded from the real CLI 2.1.197 (`npm run fixtures:record`): each is read
 * transcript-only and fully composed (its registry entry and live-signal files), and must give
 * exactly the state, status, messages and dialog outcomes the scenario produced.
 */

async function read(name: string, composed = true): Promise<AgentChat> {
  const f = recordedFixture(name)
  return composed ? readChat({ runId: f.runId, runtimeDir: f.signals ?? '', transcriptPath: f.transcript, ...(f.registry ? { registry: f.registry } : {}) }) : readChat({ runId: f.runId, runtimeDir: '', transcriptPath: f.transcript })
}

const summary = (chat: AgentChat): Array<[string, string | undefined, string]> => chat.messages.map((m) => [m.kind, m.role, m.text ?? m.tool?.name ?? m.dialog?.prompt ?? ''])

describe('recorded fixtures (real Claude Code 2.1.197)', () => {
  it('every snapshot reads without warnings, with seqs 1..n and a cursor at the end of the file', async () => {
    const names = recordedFixtureNames()
    expect(names.length).toBeGreaterThanOrEqual(16)
    for (const name of names) {
      const chat = await read(name)
      expect(chat.warnings, name).toEqual([])
      expect(chat.messages.map((m) => m.seq), name).toEqual(chat.messages.map((_, i) => i + 1))
      expect(chat.cursor.lines, name).toBeGreaterThan(0)
    }
  })

  it('plain turn: completed', async () => {
    const chat = await read('plain-turn')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(summary(chat)).toEqual([
      ['text', 'user', 'Say hello'],
      ['text', 'assistant', 'Hello! How can I help?'],
    ])
    expect(chat.usage?.outputTokens).toBeGreaterThan(0)
  })

  it('headless tool use: the text and the tool_use of one API message, the tool ok, the final text', async () => {
    const chat = await read('headless-tool-use')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(summary(chat)).toEqual([
      ['text', 'user', 'List the files'],
      ['text', 'assistant', 'Listing them.'],
      ['tool', 'assistant', 'Bash'],
      ['text', 'assistant', 'The directory is empty.'],
    ])
    expect(chat.messages[2]?.tool).toMatchObject({ status: 'ok', input: { command: 'ls' } })
  })

  it('API error: failed with the error text, also through the StopFailure marker', async () => {
    for (const composed of [false, true]) {
      expect(await read('api-error', composed)).toMatchObject({ state: 'needs_input', status: 'failed', detail: 'API Error: 400 scripted: this request is refused' })
    }
  })

  it('max_tokens: the CLI continues three times, then gives up with the output-cap API error → blocked', async () => {
    const chat = await read('max-tokens')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'blocked' })
    expect(chat.detail).toMatch(/exceeded the \d+ output token maximum/)
    expect(chat.messages.filter((m) => m.role === 'assistant')).toHaveLength(4)
  })

  it('permission prompt pending: the transcript says working; the registry says waiting for approval', async () => {
    expect(await read('permission-pending', false)).toMatchObject({ state: 'working', status: 'running', detail: 'running Bash' })
    const chat = await read('permission-pending')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', detail: 'permission prompt (Bash)' })
    // 2.1.197 wrote the assistant lines before the prompt here; the messages are in logical order.
    expect(summary(chat)).toEqual([
      ['text', 'user', 'Create a file'],
      ['text', 'assistant', 'Creating it.'],
      ['tool', 'assistant', 'Bash'],
    ])
  })

  it('permission declined: stopped, the tool an error', async () => {
    const chat = await read('permission-denied')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'stopped' })
    expect(chat.messages[2]?.tool?.status).toBe('error')
  })

  it('AskUserQuestion pending: question from the transcript (the spool is suppressed: its tool_use is on disk)', async () => {
    const chat = await read('question-pending')
    expect(chat).toMatchObject({ state: 'question', status: 'waiting_for_input', detail: 'permission prompt' })
    expect(chat.pendingDialog).toBeUndefined()
    expect(chat.messages.at(-1)?.dialog).toMatchObject({ kind: 'question', prompt: 'Which color do you prefer?', answerable: true })
    expect(chat.messages.at(-1)?.dialog?.outcome).toBeUndefined()
  })

  it('AskUserQuestion pending, live path: the hook spool alone (no transcript yet) gives question + pendingDialog', async () => {
    const f = recordedFixture('question-pending')
    const chat = await readChat({ runId: f.runId, runtimeDir: f.signals ?? '', transcriptPath: '' })
    expect(chat).toMatchObject({ state: 'question', messages: [], pendingDialog: { prompt: 'Which color do you prefer?' } })
  })

  it('AskUserQuestion answered, multi-select and dismissed: outcomes', async () => {
    const answered = await read('question-answered')
    expect(answered).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(answered.messages[2]?.dialog?.outcome).toEqual({ dismissed: false, approved: false, results: [{ question: 'Which color do you prefer?', chosen: ['Red'] }] })

    const multi = await read('question-multi-select')
    expect(multi.messages[2]?.dialog?.outcome?.results).toEqual([
      { question: 'Which color do you prefer?', chosen: ['Red'] },
      { question: 'Which fruits do you like?', chosen: ['Cherry', 'Apple'] },
    ])
    expect(multi.messages[2]?.dialog?.questions).toHaveLength(2)

    const dismissed = await read('question-dismissed')
    expect(dismissed).toMatchObject({ state: 'needs_input', status: 'stopped' })
    expect(dismissed.pendingDialog).toBeUndefined() // Esc fires no PostToolUse: the leftover spool must not show
    expect(dismissed.messages[2]?.dialog?.outcome).toEqual({ dismissed: true, approved: false })
  })

  it('plan pending / approved / rejected with feedback', async () => {
    const pending = await read('plan-pending')
    expect(pending).toMatchObject({ state: 'question', status: 'waiting_for_approval' })
    expect(pending.messages.at(-1)?.dialog).toMatchObject({ kind: 'plan', prompt: PLAN_MARKDOWN })

    const approved = await read('plan-approved')
    expect(approved).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(approved.messages[4]?.dialog?.outcome).toEqual({ dismissed: false, approved: true })

    const rejected = await read('plan-rejected')
    expect(rejected.pendingDialog).toBeUndefined()
    expect(rejected.messages[4]?.dialog?.outcome).toEqual({ dismissed: false, approved: false, feedback: 'Add tests first' })
    expect(rejected.messages.at(-1)?.text).toBe('I will add tests first.')
  })

  it('streaming then interrupted', async () => {
    expect(await read('streaming')).toMatchObject({ state: 'working', status: 'running' })
    const chat = await read('interrupted')
    expect(chat).toMatchObject({ state: 'needs_input', status: 'stopped', detail: 'interrupted by the user' })
    expect(summary(chat)).toEqual([
      ['text', 'user', 'Write a long essay'],
      ['text', 'assistant', 'Here is the first part of'],
      ['lifecycle', 'system', '[Request interrupted by user]'],
    ])
  })

  it('/clear: the new file starts at seq 1 with the echo; the old file keeps its own chat; the registry follows the new session', async () => {
    const f = recordedFixture('clear')
    expect(f.transcripts).toHaveLength(2)
    const current = await read('clear')
    expect(summary(current)).toEqual([
      ['text', 'user', '/clear'],
      ['text', 'user', 'Hello again'],
      ['text', 'assistant', 'Fresh start.'],
    ])
    const old = f.transcripts.find((p) => p !== f.transcript) ?? ''
    const before = await readChat({ runId: f.runId, runtimeDir: '', transcriptPath: old, ...(f.registry ? { registry: f.registry } : {}) })
    expect(summary(before)).toEqual([
      ['text', 'user', 'Say hi'],
      ['text', 'assistant', 'Hi there.'],
    ])
    expect(before.sessionId).not.toBe(current.sessionId)
  })
})
