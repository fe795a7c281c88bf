import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdirSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { locateTranscript } from '../../../src/agents/claude-code/locate.js'
import { readChat as readClaudeCodeChat } from '../../../src/agents/claude-code/read-chat.js'
import { locateRollout } from '../../../src/agents/codex/locate-rollout.js'
import { readChat as readCodexChat } from '../../../src/agents/codex/read-chat.js'
import { NotARegularFileError, openRegularFile } from '../../../src/agents/runstate/regular-file.js'
import { runInspect } from '../../../src/cli/inspect.js'
import { tempDir } from '../claude-code/transcript-builder.js'
import type { TempDir } from '../claude-code/transcript-builder.js'

/**
 * Issue 15 item 8: a FIFO where a transcript, registry, spool or rollout is expected blocked the
 * reader forever (an open() of a FIFO waits for a writer). Every such read must end, in bounded
 * time, refusing the FIFO or skipping it. Each check races a deadline, and afterEach opens every
 * FIFO for writing once, so a reader stuck in open() on today's code is released, not leaked.
 */

let tmp: TempDir
const fifos: string[] = []
beforeEach(() => {
  tmp = tempDir('chatrail-fifo-')
})
afterEach(() => {
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // ENXIO: nobody is blocked reading it.
    }
  }
  tmp.cleanup()
})

function mkfifo(path: string): string {
  execFileSync('mkfifo', [path])
  fifos.push(path)
  return path
}

const HUNG = Symbol('hung')
/** The promise's outcome, or HUNG when it has not settled within 5 s. */
async function within<T>(promise: Promise<T>): Promise<T | typeof HUNG> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<typeof HUNG>((resolve) => {
    timer = setTimeout(() => resolve(HUNG), 5000)
  })
  try {
    return await Promise.race([promise, deadline])
  } finally {
    clearTimeout(timer)
  }
}

async function inspect(args: string[]): Promise<{ code: number; out: string; err: string } | typeof HUNG> {
  let out = ''
  let err = ''
  const code = await within(runInspect(args, { stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) }))
  return code === HUNG ? HUNG : { code, out, err }
}

describe.skipIf(process.platform === 'win32')('FIFOs are refused, never waited on', () => {
  it('openRegularFile refuses a FIFO and a device at once, naming the path and the kind', async () => {
    const fifo = mkfifo(join(tmp.dir, 'pipe.jsonl'))
    const outcome = await within(openRegularFile(fifo).then(() => 'opened', (error: unknown) => error))
    expect(NotARegularFileError.isInstance(outcome)).toBe(true)
    expect((outcome as NotARegularFileError).message).toContain(`${fifo} is a FIFO (named pipe), not a regular file`)
    expect((outcome as NotARegularFileError).code).toBe('NOT_A_REGULAR_FILE')
    const device = await within(openRegularFile('/dev/zero').then(() => 'opened', (error: unknown) => error))
    expect((device as NotARegularFileError).kind).toBe('character device')
  })

  it('chatrail inspect <fifo> exits 1 with the reason (detected, and with --agent for both readers)', async () => {
    const fifo = mkfifo(join(tmp.dir, 'pipe.jsonl'))
    for (const args of [[fifo], [fifo, '--agent', 'claude-code'], [fifo, '--agent', 'codex'], [fifo, '--json']]) {
      const result = await inspect(args)
      expect(result).not.toBe(HUNG)
      if (result === HUNG) return
      expect(result.code).toBe(1)
      expect(result.err).toContain('is a FIFO (named pipe), not a regular file')
    }
  })

  it('readChat of either reader refuses a FIFO transcript', async () => {
    const fifo = mkfifo(join(tmp.dir, 'pipe.jsonl'))
    for (const read of [readClaudeCodeChat, readCodexChat]) {
      const outcome = await within(read({ runId: 'r', runtimeDir: '', transcriptPath: fifo }).then(() => 'read', (error: unknown) => error))
      expect(NotARegularFileError.isInstance(outcome)).toBe(true)
    }
  })

  it('inspect --registry <fifo> is refused, naming the registry path', async () => {
    const transcript = tmp.write('t.jsonl', '')
    const fifo = mkfifo(join(tmp.dir, 'registry.json'))
    const result = await inspect([transcript, '--agent', 'claude-code', '--registry', fifo])
    expect(result).not.toBe(HUNG)
    if (result === HUNG) return
    expect(result.code).toBe(1)
    expect(result.err).toContain(`${fifo} is a FIFO`)
  })

  it('a FIFO at the spool and marker paths under --runtime-dir reads as "no signal"', async () => {
    const transcript = tmp.write('t.jsonl', '')
    const runtimeDir = join(tmp.dir, 'rt')
    mkdirSync(join(runtimeDir, 'dialogs'), { recursive: true })
    mkdirSync(join(runtimeDir, 'state'), { recursive: true })
    mkfifo(join(runtimeDir, 'dialogs', 'r1.json'))
    mkfifo(join(runtimeDir, 'state', 'r1.json'))
    const result = await inspect([transcript, '--agent', 'claude-code', '--runtime-dir', runtimeDir, '--run-id', 'r1', '--json'])
    expect(result).not.toBe(HUNG)
    if (result === HUNG) return
    expect(result.code).toBe(0)
    expect(JSON.parse(result.out)).not.toHaveProperty('pendingDialog')
  })

  it('locateTranscript skips a FIFO ~/.claude/sessions/<pid>.json and still finds the real entry', async () => {
    const home = join(tmp.dir, 'home')
    const cwd = join(tmp.dir, 'project')
    mkdirSync(join(home, '.claude', 'sessions'), { recursive: true })
    mkdirSync(cwd)
    mkfifo(join(home, '.claude', 'sessions', '1.json'))
    const sessionId = '0b7a3f2e-9c1d-4e5f-8a6b-7c8d9e0f1a2b'
    writeFileSync(join(home, '.claude', 'sessions', '2.json'), JSON.stringify({ pid: process.pid, sessionId, cwd, startedAt: 1 }))
    const found = await within(locateTranscript({ home, cwd, isAlive: () => true }))
    expect(found).not.toBe(HUNG)
    expect(found === HUNG ? undefined : found?.sessionId).toBe(sessionId)
  })

  it('locateRollout skips a FIFO rollout-*.jsonl and still finds the real rollout', async () => {
    const home = join(tmp.dir, 'home')
    const cwd = join(tmp.dir, 'project')
    const day = join(home, '.codex', 'sessions', '2026', '11', '02')
    mkdirSync(day, { recursive: true })
    mkdirSync(cwd)
    const realId = '019a0000-0000-7000-8000-000000000001'
    writeFileSync(join(day, `rollout-2026-11-02T10-00-00-${realId}.jsonl`), `${JSON.stringify({ timestamp: '2026-11-02T10:00:00.000Z', type: 'session_meta', payload: { id: realId, cwd, timestamp: '2026-11-02T10:00:00.000Z' } })}\n`)
    mkfifo(join(day, 'rollout-2026-11-02T11-00-00-019a0000-0000-7000-8000-000000000002.jsonl'))
    const found = await within(locateRollout({ home, cwd }))
    expect(found).not.toBe(HUNG)
    expect(found === HUNG ? undefined : found?.sessionId).toBe(realId)
  })
})
