import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createRolloutFold, isRolloutContent, parseRolloutFileName, readChat } from '../../../src/agents/codex/index.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { outline } from './rollout-builders.js'

const here = dirname(fileURLToPath(import.meta.url))
const recorded = resolve(here, '../../fixtures/codex')
const shared = resolve(here, '../../../../shared/fixtures/codex')

interface Manifest {
  cliVersion: string
  scenarios: Record<string, { rollout: string; rolloutFileName: string; exec: string[]; exitCodes: (number | null)[] }>
}
const manifest = JSON.parse(readFileSync(join(recorded, 'manifest.json'), 'utf8')) as Manifest

const read = (path: string): Promise<AgentChat> => readChat({ runId: 'r', runtimeDir: '', transcriptPath: path })
const recordedChat = (name: string): Promise<AgentChat> => read(join(recorded, `${name}.rollout.jsonl`))

describe(`codex fixtures recorded from the real CLI (${manifest.cliVersion})`, () => {
  it('plain turn: prompt and answer, completed, with usage', async () => {
    const chat = await recordedChat('plain-turn')
    expect(outline(chat)).toEqual(['1 text:user:Say hello.', '2 text:assistant:Hello! How can I help you today?'])
    expect([chat.state, chat.status]).toEqual(['needs_input', 'completed'])
    expect(chat.usage).toEqual({ inputTokens: 120, outputTokens: 30, cacheReadTokens: 0 })
    expect(chat.warnings).toEqual([])
  })

  it('tool run: thinking from the summaries, commentary, the command the CLI really ran, the final answer', async () => {
    const chat = await recordedChat('tool-run')
    expect(outline(chat)).toEqual([
      '1 text:user:List the files in this directory.',
      '2 thinking:assistant:Listing the directory\nThe user wants the file names',
      '3 text:assistant:I will list the files.',
      '4 tool:exec_command:ok',
      '5 text:assistant:There is one file: notes.txt.',
    ])
    expect(chat.messages[3]?.tool).toMatchObject({ input: { cmd: 'ls' }, output: 'notes.txt\n' })
    expect(chat.state).toBe('needs_input')
  })

  it('failing command: the chip is error (exit 2) while the turn itself completed', async () => {
    const chat = await recordedChat('failing-command')
    expect(chat.messages[1]?.tool?.status).toBe('error')
    expect(chat.messages[1]?.tool?.output).toContain('No such file or directory')
    expect([chat.state, chat.status]).toEqual(['needs_input', 'completed'])
  })

  it('API error: the turn failed (task_complete carries the error) and says why', async () => {
    const chat = await recordedChat('api-error')
    expect([chat.state, chat.status]).toEqual(['needs_input', 'failed'])
    expect(chat.detail).toMatch(/\S/)
    expect(outline(chat).at(-1)).toBe(`2 lifecycle:system:Error: ${chat.detail}`)
  })

  it('API error with a JSON body (HTTP 400): the provider\'s message, not the raw body', async () => {
    const chat = await recordedChat('api-error-400')
    expect([chat.state, chat.status, chat.detail]).toEqual(['needs_input', 'failed', 'The scripted model refuses.'])
    expect(outline(chat).at(-1)).toBe('2 lifecycle:system:Error: The scripted model refuses.')
  })

  it('mid-turn snapshot: working, with the command still running', async () => {
    const chat = await recordedChat('mid-turn')
    expect([chat.state, chat.status]).toEqual(['working', 'running'])
    expect(chat.messages.at(-1)?.tool).toMatchObject({ name: 'exec_command', input: { cmd: 'sleep 2' }, status: 'running' })
  })

  it('aborted turn (SIGINT): stopped, interrupted, the killed command marked error', async () => {
    const chat = await recordedChat('aborted-turn')
    expect([chat.state, chat.status, chat.detail]).toEqual(['needs_input', 'stopped', 'interrupted'])
    expect(outline(chat)).toEqual(['1 text:user:Run something slow.', '2 text:assistant:Starting a long command.', '3 tool:exec_command:error', '4 lifecycle:system:interrupted'])
  })

  it('resume: the second turn is appended to the same file; a prompt starting with "-" is text', async () => {
    const chat = await recordedChat('resume')
    expect(outline(chat)).toEqual([
      '1 text:user:What is 2 + 2?',
      '2 text:assistant:4.',
      '3 text:user:-now show the notes, café ✓',
      '4 tool:exec_command:ok',
      '5 text:assistant:The notes say: remember the milk.',
    ])
    expect(chat.state).toBe('needs_input')
  })

  it('the .jsonl.zst twin reads exactly like the plain file', async () => {
    const plain = await recordedChat('resume')
    expect(await read(join(recorded, 'resume.rollout.jsonl.zst'))).toEqual(plain)
  })

  it('every exec capture names the thread its rollout records, and the rollout file name carries the same id', async () => {
    for (const [name, scenario] of Object.entries(manifest.scenarios)) {
      const chat = await read(join(recorded, scenario.rollout))
      expect(parseRolloutFileName(scenario.rolloutFileName)?.id, name).toBe(chat.sessionId)
      for (const capture of scenario.exec) {
        const first = JSON.parse(readFileSync(join(recorded, capture), 'utf8').split('\n')[0] ?? '{}') as { type?: string; thread_id?: string }
        expect(first, `${name}/${capture}`).toEqual({ type: 'thread.started', thread_id: chat.sessionId })
      }
    }
  })

  it('no prefix of any recording is terminal before its end event is written (never terminal from silence)', () => {
    for (const scenario of Object.values(manifest.scenarios)) {
      const lines = readFileSync(join(recorded, scenario.rollout), 'utf8').split('\n').filter((line) => line !== '')
      const fold = createRolloutFold()
      let ended = false
      lines.forEach((line, index) => {
        fold.push(JSON.parse(line), index + 1)
        const type = (JSON.parse(line) as { payload?: { type?: string } }).payload?.type
        if (type === 'task_complete' || type === 'turn_aborted') ended = true
        if (type === 'task_started') ended = false
        const chat = fold.snapshot({ offset: 0, lines: index + 1 })
        if (!ended) expect([`${scenario.rollout}:${index + 1}`, chat.state]).toEqual([`${scenario.rollout}:${index + 1}`, index === 0 ? 'idle' : 'working'])
      })
    }
  })
})

const sharedRollouts = join(shared, 'rollouts')
describe.skipIf(!existsSync(sharedRollouts))('codex: every real rollout in ../shared/fixtures/codex (skipped when that folder is absent, e.g. a fresh clone)', () => {
  const files = existsSync(sharedRollouts) ? readdirSync(sharedRollouts).filter((name) => name.endsWith('.jsonl')) : []

  it.each(files)('%s reads without a throw or a warning, with increasing seqs and a sane state', async (name) => {
    const chat = await read(join(sharedRollouts, name))
    expect(chat.warnings).toEqual([])
    chat.messages.forEach((message, index) => {
      expect(message.seq).toBeGreaterThan(index === 0 ? 0 : (chat.messages[index - 1]?.seq ?? 0))
    })
    expect(['idle', 'working', 'needs_input']).toContain(chat.state)
    expect(chat.messages.every((message) => message.text === undefined || message.text.trim() !== '')).toBe(true)
    expect(isRolloutContent(JSON.parse(readFileSync(join(sharedRollouts, name), 'utf8').split('\n')[0] ?? 'null'))).toBe(true)
  })

  it('0.66 (two implicit turns, 2025 envelope): completed by inference, the two failing python runs are error chips', async () => {
    const file = join(sharedRollouts, 'rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl')
    if (!existsSync(file)) return
    const chat = await read(file)
    expect([chat.state, chat.status]).toEqual(['needs_input', 'completed'])
    expect(chat.messages.filter((message) => message.kind === 'text' && message.role === 'user').map((message) => message.text)).toEqual([
      'add myapp directory and create myapp/hoge.py which shows result of print(1+1).',
      'cd to myapp and run python hoge.py',
    ])
    expect(chat.messages.filter((message) => message.tool).map((message) => `${message.tool?.name}:${message.tool?.status}`)).toEqual([
      'shell_command:ok',
      'apply_patch:ok',
      'shell_command:error',
      'shell_command:error',
      'shell_command:ok',
    ])
  })

  it('0.58 (a file that just stops after a tool result): working, never completed', async () => {
    const file = join(sharedRollouts, 'rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl')
    if (!existsSync(file)) return
    const chat = await read(file)
    expect([chat.state, chat.status]).toEqual(['working', 'running'])
    expect(chat.sessionId).toBe('019a93b9-f380-7600-98ff-940e6b99603c')
  })

  it('legacy pre-envelope: prose from bare items, the environment never shown as a prompt', async () => {
    const file = join(sharedRollouts, 'legacy-2025-08-pre-envelope-trimmed.jsonl')
    if (!existsSync(file)) return
    const chat = await read(file)
    expect(chat.messages.map((message) => message.kind)).toEqual(['text', 'thinking', 'text', 'tool'])
    expect(chat.messages[3]?.tool).toMatchObject({ name: 'update_plan', status: 'ok', output: 'Plan updated' })
  })

  it('exec captures are not rollouts (inspect must not take them for one)', () => {
    const execDir = join(shared, 'exec')
    for (const name of existsSync(execDir) ? readdirSync(execDir) : []) {
      const first = JSON.parse(readFileSync(join(execDir, name), 'utf8').split('\n')[0] ?? 'null') as unknown
      expect(isRolloutContent(first), name).toBe(false)
    }
  })
})
