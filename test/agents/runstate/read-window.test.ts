import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readChat as readClaudeChat } from '../../../src/agents/claude-code/read-chat.js'
import { createMonitor } from '../../../src/agents/monitor/index.js'
import { readEventLog } from '../../../src/agents/opencode/event-log.js'
import { isWindowNote } from '../../../src/agents/runstate/read-window.js'
import { runInspect } from '../../../src/cli/inspect.js'

/**
 * Issue 28 item 5: one window policy for every reader (runstate/read-window.ts). A file at least
 * `windowThresholdBytes` long is read through its first line and its last `tailWindowBytes`, with a
 * warning. The mechanism is tested at small caps; one realistic-size test uses a sparse file over
 * the real 128 MiB default (cheap to make: the hole is never written).
 */

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures')
const SESSION = 'ad9a347b-1772-4bea-87d0-7f488298ac9a'
const MiB = 1024 * 1024

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-window-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A Claude Code transcript of `turns` prompt → reply turns (one causal chain). */
function claudeTurns(turns: number, from = 1, parent: string | null = null): { text: string; last: string } {
  const lines: string[] = []
  const base = { isSidechain: false, userType: 'external', cwd: '/tmp/proj', sessionId: SESSION, version: '2.1.197' }
  let previous = parent
  for (let n = from; n < from + turns; n += 1) {
    const at = new Date(Date.UTC(2026, 10, 30) + n * 1000).toISOString()
    const prompt = `u-${n}`
    const reply = `a-${n}`
    lines.push(JSON.stringify({ ...base, parentUuid: previous, type: 'user', message: { role: 'user', content: `Prompt ${n} ${'.'.repeat(100)}` }, uuid: prompt, timestamp: at }))
    lines.push(JSON.stringify({ ...base, parentUuid: prompt, type: 'assistant', message: { id: `msg_${n}`, role: 'assistant', model: 'm', content: [{ type: 'text', text: `Reply ${n}` }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }, uuid: reply, timestamp: at }))
    previous = reply
  }
  return { text: `${lines.join('\n')}\n`, last: previous ?? '' }
}

/**
 * `head`, then a hole of NUL bytes (no newline: a sparse file's unwritten part) up to `holeEnd`, then
 * `tail`. Costs only the bytes written.
 */
function sparseFile(path: string, head: string, holeEnd: number, tail: string): number {
  const fd = openSync(path, 'w')
  try {
    writeSync(fd, head, 0)
    writeSync(fd, `\n${tail}`, holeEnd)
  } finally {
    closeSync(fd)
  }
  return holeEnd + Buffer.byteLength(tail) + 1
}

describe('Claude Code transcripts are read through windows past the threshold', () => {
  it('reads the first line and the last window only, and says so', async () => {
    const path = join(dir, `${SESSION}.jsonl`)
    const { text } = claudeTurns(1000)
    writeFileSync(path, text)
    const whole = await readClaudeChat({ runId: 'r', runtimeDir: '', transcriptPath: path })
    expect(whole.messages).toHaveLength(2000)
    const chat = await readClaudeChat({ runId: 'r', runtimeDir: '', transcriptPath: path, windowThresholdBytes: 64 * 1024, tailWindowBytes: 16 * 1024 })
    expect(chat.warnings[0]).toMatch(new RegExp(`^${path}: 0\\.\\d MiB transcript read through windows \\(its first line and the last 0\\.\\d MiB\\)`))
    expect(isWindowNote(chat.warnings[0] ?? '')).toBe(true)
    // The first line (turn 1's prompt) and the turns of the last 16 KiB, never the middle.
    expect(chat.messages.length).toBeGreaterThan(20)
    expect(chat.messages.length).toBeLessThan(200)
    expect(chat.messages[0]?.text).toMatch(/^Prompt 1 /)
    expect(chat.messages.some((message) => message.text?.startsWith('Prompt 500 '))).toBe(false)
    expect(chat.messages.at(-1)?.text).toBe('Reply 1000')
    expect([chat.state, chat.status]).toEqual([whole.state, whole.status])
    expect(chat.sessionId).toBe(SESSION)
  })

  it('by default past 128 MiB: a sparse 130 MiB transcript reads only its ends, in bounded time', async () => {
    const path = join(dir, `${SESSION}.jsonl`)
    const first = claudeTurns(1)
    const rest = claudeTurns(50, 2, first.last)
    sparseFile(path, first.text, 130 * MiB, rest.text)
    const started = performance.now()
    const chat = await readClaudeChat({ runId: 'r', runtimeDir: '', transcriptPath: path })
    const elapsed = performance.now() - started
    expect(chat.warnings[0]).toMatch(/130\.0 MiB transcript read through windows \(its first line and the last \d+\.\d MiB\)/)
    // Without a window the 130 MiB hole is read through, as one over-cap line with a placeholder.
    expect(chat.messages.some((message) => message.kind === 'lifecycle' && /line cap/.test(message.text ?? ''))).toBe(false)
    expect(chat.messages[0]?.text).toMatch(/^Prompt 1 /)
    expect(chat.messages.at(-1)?.text).toBe('Reply 51')
    expect(chat.cursor.offset).toBe(130 * MiB + 1 + Buffer.byteLength(rest.text))
    // Generous: reading 16 MiB of the hole and the lines takes well under a second on an idle machine.
    expect(elapsed).toBeLessThan(10_000)
  })

  it('`chatrail inspect` reads the same window and counts only its lines as read or unread', async () => {
    const path = join(dir, `${SESSION}.jsonl`)
    const first = claudeTurns(1)
    // Lines no Claude Code reader reads, before the window: counted as unread by a whole-file scan.
    const junk = `${'{"not":"a transcript line"}\n'.repeat(20_000)}`
    const rest = claudeTurns(20, 2, first.last)
    sparseFile(path, first.text + junk, 130 * MiB, rest.text)
    const out: string[] = []
    const err: string[] = []
    const code = await runInspect([path, '--last', '1'], { stdout: (text) => out.push(text), stderr: (text) => err.push(text) })
    expect(err).toEqual([])
    expect(code).toBe(0)
    const text = out.join('\n')
    expect(text).toMatch(/warning .*130\.0 MiB transcript read through windows/)
    expect(text).not.toMatch(/went unread/)
    expect(text).toMatch(/Reply 21/)
  })

  it('the monitor (`chatrail sessions`) reads through the window and warns once', async () => {
    const home = join(dir, 'home')
    const project = join(home, '.claude', 'projects', '-tmp-proj')
    mkdirSync(project, { recursive: true })
    const first = claudeTurns(1)
    const rest = claudeTurns(10, 2, first.last)
    sparseFile(join(project, `${SESSION}.jsonl`), first.text, 130 * MiB, rest.text)
    const monitor = createMonitor({ home, clock: () => Date.UTC(2026, 10, 30, 1) })
    await monitor.tick()
    await monitor.tick()
    const state = monitor.getState()
    expect(state.entries).toHaveLength(1)
    expect(state.entries[0]?.title).toMatch(/^Prompt 1 /)
    expect(state.entries[0]?.status).toBe('completed')
    expect(state.warnings.filter(isWindowNote)).toHaveLength(1)
    expect(state.warnings.find(isWindowNote)).toMatch(/130\.0 MiB transcript read through windows/)
  })
})

describe('OpenCode event logs are read through windows past the threshold', () => {
  it('reads the first line and the last window, and says so', async () => {
    const events = readFileSync(join(fixtures, 'opencode', 'turn-completes', 'events.jsonl'), 'utf8')
    const plain = join(dir, 'events.jsonl')
    writeFileSync(plain, events)
    const expected = await readEventLog({ transcriptPath: plain })
    // 200 KiB of heartbeats before the recorded turn: never parsed through the window.
    const path = join(dir, 'big-events.jsonl')
    const filler = '{"type":"not-an-event-of-this-session"}\n{"no":"type"}\n'.repeat(4000)
    writeFileSync(path, `{"type":"server.connected","properties":{}}\n${filler}${events}`)
    const whole = await readEventLog({ transcriptPath: path })
    expect(whole.warnings.join('\n')).toMatch(/4000 lines are JSON but not OpenCode events/)
    const chat = await readEventLog({ transcriptPath: path, windowThresholdBytes: 64 * 1024, tailWindowBytes: Buffer.byteLength(events) })
    expect(chat.warnings[0]).toMatch(/MiB event log read through windows \(its first line and the last/)
    expect(chat.warnings.join('\n')).not.toMatch(/not OpenCode events/)
    expect(chat.messages).toEqual(expected.messages)
    expect([chat.state, chat.status]).toEqual([expected.state, expected.status])
  })
})
