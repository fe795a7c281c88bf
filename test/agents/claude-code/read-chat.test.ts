import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import type { ClaudeRegistryEntry } from '../../../src/agents/claude-code/registry.js'
import { TranscriptGoneError } from '../../../src/agents/runstate/errors.js'
import { askInput, SESSION, tempDir, transcript } from './transcript-builder.js'
import type { TempDir, TranscriptBuilder } from './transcript-builder.js'

/** The read contract and the composition precedence (run-state-readers §8 items 1–4, 48–55, 65, 93–100). */

let tmp: TempDir
let runtimeDir: string
const runId = 'run-1'

beforeEach(() => {
  tmp = tempDir()
  runtimeDir = join(tmp.dir, 'runtime')
})
afterEach(() => tmp.cleanup())

function writeTranscript(t: TranscriptBuilder, session = SESSION): string {
  return tmp.write(`${session}.jsonl`, t.jsonl())
}

function writeSignal(kind: 'dialogs' | 'state', payload: unknown, mtimeMs?: number): string {
  mkdirSync(join(runtimeDir, kind), { recursive: true })
  const path = join(runtimeDir, kind, `${runId}.json`)
  writeFileSync(path, JSON.stringify(payload))
  if (mtimeMs !== undefined) utimesSync(path, mtimeMs / 1000, mtimeMs / 1000)
  return path
}

const spoolPayload = (toolUseId = 'toolu_ABC', session: string | null = SESSION): Record<string, unknown> => ({
  ...(session !== null ? { session_id: session, transcript_path: `/x/${session}.jsonl` } : {}),
  hook_event_name: 'PreToolUse',
  tool_name: 'AskUserQuestion',
  tool_input: askInput,
  tool_use_id: toolUseId,
})

const registry = (status: string, extra: Partial<ClaudeRegistryEntry> = {}): ClaudeRegistryEntry => ({ pid: 1, sessionId: SESSION, cwd: '/w', status, statusUpdatedAt: Date.parse('2026-07-01T12:00:00.000Z'), ...extra })

describe('readChat: the read contract', () => {
  it('1–2: transcriptPath "" is the idle empty chat, never an error, with or without a runtime dir', async () => {
    for (const dir of ['', runtimeDir]) {
      expect(await readChat({ runId, runtimeDir: dir, transcriptPath: '' })).toEqual({ agent: 'claude-code', state: 'idle', status: 'idle', messages: [], cursor: { offset: 0, lines: 0 }, warnings: [] })
    }
  })

  it('4/48: a vanished path is TranscriptGoneError (instanceof and code), even with a live spool', async () => {
    writeSignal('dialogs', spoolPayload())
    const error = await readChat({ runId, runtimeDir, transcriptPath: join(tmp.dir, 'gone.jsonl') }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TranscriptGoneError)
    expect(error).toMatchObject({ code: 'TRANSCRIPT_GONE' })
  })

  it('other I/O errors pass through unchanged', async () => {
    const error = await readChat({ runId, runtimeDir: '', transcriptPath: tmp.dir }).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(TranscriptGoneError)
    expect(error).toMatchObject({ code: 'EISDIR' })
  })

  it('returns the session, the cursor and the usage', async () => {
    const path = writeTranscript(transcript().prompt('hi').text('hello'))
    const chat = await readChat({ runId, runtimeDir: '', transcriptPath: path })
    expect(chat).toMatchObject({ agent: 'claude-code', sessionId: SESSION, state: 'needs_input', status: 'completed', usage: { inputTokens: 10, outputTokens: 5 } })
    expect(chat.cursor.lines).toBe(2)
  })
})

describe('readChat: live spool dialogs', () => {
  it('49: a spool dialog over a needs_input transcript → question + pendingDialog; messages stay transcript-only', async () => {
    const path = writeTranscript(transcript().prompt('hi').text('hello'))
    writeSignal('dialogs', spoolPayload())
    const chat = await readChat({ runId, runtimeDir, transcriptPath: path })
    expect(chat).toMatchObject({ state: 'question', status: 'waiting_for_input', pendingDialog: { toolId: 'toolu_ABC', prompt: 'Which color do you prefer?' } })
    expect(chat.messages.map((m) => m.text)).toEqual(['hi', 'hello'])
  })

  it('50/58: a spool with no transcript → question + pendingDialog, no messages, cursor 0; no spool → idle', async () => {
    writeSignal('dialogs', spoolPayload())
    const chat = await readChat({ runId, runtimeDir, transcriptPath: '' })
    expect(chat).toMatchObject({ state: 'question', messages: [], cursor: { offset: 0, lines: 0 } })
    expect(chat.pendingDialog?.options.map((o) => o.label)).toEqual(['Red', 'Blue', 'Other'])
    expect(chat.pendingDialog?.answerable).toBe(true)
    expect((await readChat({ runId: 'other', runtimeDir, transcriptPath: '' })).state).toBe('idle')
  })

  it('51: runtimeDir "" ignores a spool and a marker on disk', async () => {
    const path = writeTranscript(transcript().prompt('hi'))
    writeSignal('dialogs', spoolPayload())
    writeSignal('state', { hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission' }, Date.now() + 60_000)
    const chat = await readChat({ runId, runtimeDir: '', transcriptPath: path })
    expect(chat).toMatchObject({ state: 'working' })
    expect(chat.pendingDialog).toBeUndefined()
  })

  it('52: armed, no spool, the transcript tail is a pending dialog → question, no pendingDialog, dialog in messages', async () => {
    const path = writeTranscript(transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput))
    const chat = await readChat({ runId, runtimeDir, transcriptPath: path })
    expect(chat.state).toBe('question')
    expect(chat.pendingDialog).toBeUndefined()
    expect(chat.messages.at(-1)?.kind).toBe('dialog')
  })

  it('59: the spool is suppressed once its tool_use id is in the transcript; an unrelated id is not', async () => {
    const path = writeTranscript(transcript().prompt('ask').toolUse('toolu_ABC', 'AskUserQuestion', askInput).toolResult('toolu_ABC', 'x', { result: { answers: { 'Which color do you prefer?': 'Red' } } }))
    writeSignal('dialogs', spoolPayload('toolu_ABC'))
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog).toBeUndefined()
    writeSignal('dialogs', spoolPayload('toolu_OTHER'))
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog?.toolId).toBe('toolu_OTHER')
  })

  it('60: a same-session transcript written after the spool (queue-operation) does not suppress it', async () => {
    const t = transcript().prompt('ask').text('asking', { stop: 'tool_use' })
    t.meta({ type: 'queue-operation', operation: 'enqueue', content: 'typed meanwhile', sessionId: SESSION })
    const path = writeTranscript(t)
    writeSignal('dialogs', spoolPayload(), Date.now() - 60_000)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('question')
  })

  it('61: a spool of another session (after a rotation) is suppressed, newer or older; the same session is shown', async () => {
    const path = writeTranscript(transcript().prompt('hi'))
    for (const mtime of [Date.now() - 60_000, Date.now() + 60_000]) {
      writeSignal('dialogs', spoolPayload('toolu_X', 'another-session'), mtime)
      expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog).toBeUndefined()
    }
    writeSignal('dialogs', spoolPayload('toolu_X', SESSION))
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog?.toolId).toBe('toolu_X')
  })

  it('62: a legacy spool without a session id is served against an older transcript, suppressed by a newer one', async () => {
    const path = writeTranscript(transcript().prompt('hi'))
    utimesSync(path, (Date.now() - 120_000) / 1000, (Date.now() - 120_000) / 1000)
    writeSignal('dialogs', spoolPayload('toolu_L', null), Date.now() - 60_000)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog?.toolId).toBe('toolu_L')
    utimesSync(path, Date.now() / 1000, Date.now() / 1000)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog).toBeUndefined()
  })

  it('64: a missing spool, garbage JSON or a non-dialog tool is no dialog', async () => {
    const path = writeTranscript(transcript().prompt('hi').text('hello'))
    mkdirSync(join(runtimeDir, 'dialogs'), { recursive: true })
    writeFileSync(join(runtimeDir, 'dialogs', `${runId}.json`), '{garbage')
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('needs_input')
    writeSignal('dialogs', { ...spoolPayload(), tool_name: 'Bash' })
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).pendingDialog).toBeUndefined()
  })

  it('a plan spool is question / waiting_for_approval with the full plan', async () => {
    writeSignal('dialogs', { session_id: SESSION, hook_event_name: 'PreToolUse', tool_name: 'ExitPlanMode', tool_input: { plan: '# P\n\nlong', planFilePath: '/p.md' }, tool_use_id: 'toolu_P' })
    const chat = await readChat({ runId, runtimeDir, transcriptPath: '' })
    expect(chat).toMatchObject({ state: 'question', status: 'waiting_for_approval', pendingDialog: { kind: 'plan', prompt: '# P\n\nlong' } })
  })
})

describe('readChat: markers and the registry', () => {
  const permission = { session_id: SESSION, hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission to use Bash' }

  it('53/65: a current Notification marker over a working tail → needs_input / waiting_for_approval with the message', async () => {
    const t = transcript().prompt('go').toolUse('t1', 'Bash', { command: 'touch x' })
    const path = writeTranscript(t)
    writeSignal('state', permission, t.lastMs + 500)
    expect(await readChat({ runId, runtimeDir, transcriptPath: path })).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', detail: 'Claude needs your permission to use Bash (Bash)' })
  })

  it('65: a marker with no transcript is needs_input; a state line written after it makes it stale, a queue-operation does not', async () => {
    writeSignal('state', permission, Date.parse('2026-07-01T10:00:30.000Z'))
    expect((await readChat({ runId, runtimeDir, transcriptPath: '' })).state).toBe('needs_input')
    const t = transcript().prompt('go').toolUse('t1', 'Bash', {})
    t.meta({ type: 'queue-operation', operation: 'enqueue', content: 'later', timestamp: '2026-07-01T11:00:00.000Z' })
    const path = writeTranscript(t)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('needs_input')
    t.toolResult('t1', 'done').text('finished')
    writeTranscript(t)
    writeSignal('state', permission, t.lastMs - 500)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('needs_input')
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).status).toBe('completed')
  })

  it('53b/54: a marker over a transcript question stays question; spool and marker together → question + pendingDialog', async () => {
    const t = transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput)
    const path = writeTranscript(t)
    writeSignal('state', permission, t.lastMs + 500)
    expect(await readChat({ runId, runtimeDir, transcriptPath: path })).toMatchObject({ state: 'question' })
    writeSignal('dialogs', spoolPayload('toolu_NEW'))
    expect(await readChat({ runId, runtimeDir, transcriptPath: path })).toMatchObject({ state: 'question', pendingDialog: { toolId: 'toolu_NEW' } })
  })

  it('55: live signals beat the pending-work hold', async () => {
    const t = transcript().prompt('go').toolUse('t1', 'Agent', {}).toolResult('t1', 'ok', { result: { status: 'async_launched', agentId: 'a1' } }).text('started')
    const path = writeTranscript(t)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('working')
    writeSignal('state', permission, t.lastMs + 500)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('needs_input')
    writeSignal('dialogs', spoolPayload())
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('question')
  })

  it('an idle_prompt notification keeps a finished turn\'s status; Stop beats a stale working; StopFailure is failed', async () => {
    const done = transcript().prompt('hi').text('hello')
    const path = writeTranscript(done)
    writeSignal('state', { session_id: SESSION, hook_event_name: 'Notification', notification_type: 'idle_prompt', message: 'Claude is waiting for your input' }, done.lastMs + 60_000)
    expect(await readChat({ runId, runtimeDir, transcriptPath: path })).toMatchObject({ state: 'needs_input', status: 'completed' })

    const stale = transcript().prompt('go').toolUse('t1', 'Bash', {})
    writeTranscript(stale)
    writeSignal('state', { session_id: SESSION, hook_event_name: 'Stop' }, stale.lastMs + 1000)
    expect(await readChat({ runId, runtimeDir, transcriptPath: path })).toMatchObject({ state: 'needs_input', status: 'completed' })
    writeSignal('state', { session_id: SESSION, hook_event_name: 'StopFailure', error: 'rate_limit' }, stale.lastMs + 1000)
    expect(await readChat({ runId, runtimeDir, transcriptPath: path })).toMatchObject({ state: 'needs_input', status: 'failed', detail: 'rate_limit' })
  })

  it('a marker of another session is ignored', async () => {
    const t = transcript().prompt('go').toolUse('t1', 'Bash', {})
    const path = writeTranscript(t)
    writeSignal('state', { ...permission, session_id: 'someone-else' }, t.lastMs + 500)
    expect((await readChat({ runId, runtimeDir, transcriptPath: path })).state).toBe('working')
  })

  it('93: busy → working over a working or a needs_input fold', async () => {
    const path = writeTranscript(transcript().prompt('hi').text('hello'))
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('busy') })).toMatchObject({ state: 'working', status: 'running' })
    writeTranscript(transcript().prompt('hi'))
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('busy') })).state).toBe('working')
  })

  it('94: idle keeps the hold and a finished fold; an empty fold + idle is idle', async () => {
    const held = transcript().prompt('go').toolUse('t1', 'Agent', {}).toolResult('t1', 'ok', { result: { status: 'async_launched', agentId: 'a1' } }).text('started')
    const path = writeTranscript(held)
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('idle') })).state).toBe('working')
    writeTranscript(transcript().prompt('hi').text('hello'))
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('idle') })).state).toBe('needs_input')
    writeTranscript(transcript().meta({ type: 'mode', mode: 'normal', sessionId: SESSION }))
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('idle') })).toMatchObject({ state: 'idle', status: 'idle' })
  })

  it('a registry idle written after the last line beats a stale working fold; an older one does not', async () => {
    const t = transcript().prompt('go').toolUse('t1', 'Bash', {})
    const path = writeTranscript(t)
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('idle', { statusUpdatedAt: t.lastMs + 1000 }) })).toMatchObject({ state: 'needs_input', status: 'idle' })
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('idle', { statusUpdatedAt: t.lastMs - 1000 }) })).state).toBe('working')
    const unmarked = writeTranscript(transcript().prompt('hi').text('hello', { stop: null }))
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: unmarked, registry: registry('idle', { statusUpdatedAt: Date.now() }) })).status).toBe('completed')
  })

  it('95/96: waiting → needs_input with the trimmed waitingFor as detail, also over a working fold; with a dialog → question + detail', async () => {
    const path = writeTranscript(transcript().prompt('go').toolUse('t1', 'Bash', {}))
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('waiting', { waitingFor: '  permission prompt ' }) })).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', detail: 'permission prompt (Bash)' })
    writeTranscript(transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput))
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('waiting', { waitingFor: 'permission prompt' }) })).toMatchObject({ state: 'question', status: 'waiting_for_input', detail: 'permission prompt' })
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: registry('busy') })).state).toBe('question')
  })

  it('97: an unknown status, another session\'s entry or a missing registry file leave the fold alone', async () => {
    const path = writeTranscript(transcript().prompt('hi').text('hello'))
    for (const entry of [registry('sleeping'), registry('busy', { sessionId: 'rotated-away' }), join(tmp.dir, 'no-such-registry.json')]) {
      const chat = await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: entry })
      expect(chat).toMatchObject({ state: 'needs_input', status: 'completed' })
      expect(chat.detail).toBeUndefined()
    }
  })

  it('takes the registry of the session the transcript\'s lines name, whatever the file is called', async () => {
    // A transcript copied or renamed (a fixture, a backup): its lines still carry SESSION.
    const renamed = writeTranscript(transcript().prompt('hi').text('hello'), 'copied-transcript')
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: renamed, registry: registry('busy') })).toMatchObject({ sessionId: SESSION, state: 'working', status: 'running' })
    const file = tmp.write('123.json', JSON.stringify(registry('waiting', { waitingFor: 'permission prompt' })))
    expect(await readChat({ runId, runtimeDir: '', transcriptPath: renamed, registry: file })).toMatchObject({ state: 'needs_input', detail: 'permission prompt' })
    // Neither the file name nor the lines name the entry's session: still ignored.
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: renamed, registry: registry('busy', { sessionId: 'rotated-away' }) })).state).toBe('needs_input')
  })

  it('reads the registry from a file path', async () => {
    const path = writeTranscript(transcript().prompt('hi').text('hello'))
    const file = tmp.write('123.json', JSON.stringify(registry('busy')))
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: path, registry: file })).state).toBe('working')
  })

  it('pre-transcript: registry busy or waiting still counts when the path is ""', async () => {
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: '', registry: registry('busy') })).state).toBe('working')
    expect((await readChat({ runId, runtimeDir: '', transcriptPath: '', registry: registry('waiting', { waitingFor: 'permission prompt' }) })).state).toBe('needs_input')
  })
})
