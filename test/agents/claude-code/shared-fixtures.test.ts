import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'

/**
 * Real transcripts from other public projects (CLI 1.0.51 – 2.1.258) in ../shared/fixtures/claude-code,
 * when that folder exists: every file reads without a crash and with a sane chat; the files the
 * coverage map names give their documented state.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'claude-code')
const present = existsSync(ROOT)
const STATES = ['idle', 'working', 'needs_input', 'question', 'ended']
const STATUSES = ['running', 'streaming', 'waiting_for_approval', 'waiting_for_input', 'blocked', 'completed', 'failed', 'stopped', 'idle', 'unknown']

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

const read = (file: string): Promise<AgentChat> => readChat({ runId: 'sweep', runtimeDir: '', transcriptPath: join(ROOT, file) })

describe.skipIf(!present)('shared real-data fixtures (skipped: ../shared/fixtures/claude-code is absent on a fresh clone)', () => {
  it('every file reads without throwing, into a sane chat', async () => {
    const files = walk(ROOT)
    expect(files.length).toBeGreaterThan(30)
    for (const file of files) {
      const chat = await readChat({ runId: 'sweep', runtimeDir: '', transcriptPath: file })
      const where = relative(ROOT, file)
      expect(STATES, where).toContain(chat.state)
      expect(STATUSES, where).toContain(chat.status)
      expect(chat.messages.map((m) => m.seq), where).toEqual(chat.messages.map((_, i) => i + 1))
      expect(chat.cursor.offset, where).toBeLessThanOrEqual(statSync(file).size)
      for (const m of chat.messages) {
        if (m.kind === 'tool') expect(['running', 'ok', 'error'], where).toContain(m.tool?.status)
        if (m.kind === 'dialog') expect(m.dialog?.toolId, where).toBeTruthy()
      }
      if (file.endsWith('.jsonl')) expect(chat.warnings, where).toEqual([])
    }
  })

  it('a pending AskUserQuestion prefix is question; a tool denial and an interrupt are needs_input / stopped', async () => {
    expect((await read('spotter/subagent.prefix-L1-33-askuserquestion-unanswered.jsonl')).state).toBe('question')
    for (const file of ['spotter/short.jsonl', 'spotter/tool_heavy.jsonl', 'happy/permission-prompt-aborted-with-interrupt.jsonl']) {
      expect(await read(file), file).toMatchObject({ state: 'needs_input', status: 'stopped' })
    }
  })

  it('API errors are failed, including the 2.1.29 one followed by local-command output', async () => {
    expect(await read('happy/api-error/rate-limit.jsonl')).toMatchObject({ state: 'needs_input', status: 'failed' })
    expect(await read('claudeless-v2.1.29/initial-state/305d01e1-9f36-4024-87ff-a1fc2a7818e0.jsonl')).toMatchObject({ state: 'needs_input', status: 'failed' })
  })

  it('answered dialogs carry their outcomes (two questions, free text, plan approved and rejected)', async () => {
    const subagent = await read('spotter/subagent.jsonl')
    const dialogs = subagent.messages.filter((m) => m.kind === 'dialog')
    expect(dialogs[0]?.dialog?.outcome?.results).toHaveLength(2)
    expect(dialogs.at(-1)?.dialog).toMatchObject({ kind: 'plan', outcome: { approved: true } })
    const freeText = (await read('spotter/4d5611e5-241a-462a-8d15-5122611a9569.window.jsonl')).messages.find((m) => m.kind === 'dialog')
    expect(freeText?.dialog?.outcome?.results?.[0]).toMatchObject({ chosen: [], otherText: 'main was clean; fix the issues' })
    const rejected = (await read('agent-workflows-monorepo-v2/40959b0c-1269-4656-8b3f-0a2149b4fb82.from-chat-json.jsonl')).messages.find((m) => m.kind === 'dialog')
    expect(rejected?.dialog?.outcome).toEqual({ dismissed: false, approved: false })
    const declined = (await read('agent-workflows-monorepo-v2/da4b44ad-20c9-42f5-b889-86f70935d518.from-chat-json.jsonl')).messages.find((m) => m.dialog?.kind === 'question')
    expect(declined?.dialog?.outcome).toEqual({ dismissed: true, approved: false })
  })

  it('/exit ends a session; a subagent file reads as its own stream; inline sidechains stay out', async () => {
    expect((await read('claudeless-v2.1.29/clear-command/5c91b750-86c7-44d8-bb93-e5046ff2c302.jsonl')).state).toBe('ended')
    expect((await read('spotter/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl')).messages.length).toBeGreaterThan(0)
    const inline = await read('agentlogs/subagent.jsonl')
    const sidechainTexts = readFileSync(join(ROOT, 'agentlogs/subagent.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"isSidechain":true'))
      .map((line) => (JSON.parse(line) as { message?: { content?: unknown } }).message?.content)
      .filter((content): content is string => typeof content === 'string')
    expect(sidechainTexts.length).toBeGreaterThan(0)
    expect(inline.messages.length).toBeGreaterThan(0)
    for (const text of sidechainTexts) expect(inline.messages.map((m) => m.text)).not.toContain(text)
  })
})
