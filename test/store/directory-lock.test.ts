import { spawn } from 'node:child_process'
import { existsSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isStoreUnavailableError, pgliteStore } from '../../src/store/index.js'
import { pgliteStoreWith } from '../../src/store/pglite-store.js'
import { scriptBundle } from '../support/cli-bundle.js'
import { pgliteDataDirFromTemplate } from '../support/pglite-template.js'

// One process per PGlite directory (ARCHITECTURE invariant 10). Without the lock two processes
// each kept their own copy of the database and the last to flush won: 150 of 300 acknowledged
// messages read back. The lock is a socket the kernel closes with its process, so a SIGKILLed
// holder frees the directory at once (no PID file to go stale).
// The directories start as copies of a migrated template (test/support/pglite-template.ts): these
// tests are about the lock, not initdb, and a first open of an empty directory costs seconds per process.

// Built once with esbuild and started with plain node (test/support/cli-bundle.ts): through tsx
// each of the file's seven children spent ~0.5 s more CPU (2.1 s against 1.6 s) before PGlite opened.
const script = await scriptBundle('test/store/support/lock-child.ts')
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const tempDir = async (): Promise<string> => {
  const dir = await pgliteDataDirFromTemplate()
  dirs.push(dir)
  return dir
}

interface Reply {
  pid: number
  acked: number
  error?: { code?: string; message: string; hint?: string; directory?: string; holder?: { pid: number; command?: string } }
}

function child(args: readonly string[]): { reply: Promise<Reply>; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; kill: (signal: NodeJS.Signals) => void } {
  const proc = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  proc.stderr.on('data', (data: Buffer) => { err += data.toString() })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })))
  const reply = new Promise<Reply>((resolve, reject) => {
    proc.stdout.on('data', (data: Buffer) => {
      out += data.toString()
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] as string) as Reply)
    })
    void exit.then(({ code, signal }) => reject(new Error(`lock child exited (${code ?? signal}) before replying: ${err}`)))
  })
  return { reply, exit, kill: (signal) => proc.kill(signal) }
}

async function readBack(dataDir: string): Promise<number> {
  const store = pgliteStore({ dataDir })
  try {
    return (await store.load('shared'))?.messages.length ?? 0
  } finally {
    await store.close()
  }
}

describe.each(['auto', 'file'] as const)('PGlite directory lock (%s)', (mode) => {
  it('a second process is refused at open, naming the directory and the holder; every acknowledged message reads back', async () => {
    const dataDir = await tempDir()
    const first = child(['append', dataDir, mode, 'a', '150', 'hold'])
    const holder = await first.reply
    expect(holder.acked).toBe(150)
    const second = child(['append', dataDir, mode, 'b', '150', 'exit'])
    const refused = await second.reply
    expect(refused.acked).toBe(0)
    expect(refused.error?.code).toBe('STORE_UNAVAILABLE')
    expect(refused.error?.message).toContain(`the PGlite directory ${dataDir} is in use by process ${holder.pid} (node `)
    expect(refused.error?.message).toContain('lock-child.js append')
    expect(refused.error?.holder).toEqual({ pid: holder.pid, command: expect.stringContaining('lock-child.js') })
    expect(refused.error?.directory).toBe(dataDir)
    expect(refused.error?.hint).toContain('One process owns a PGlite directory at a time')
    expect((await second.exit).code).toBe(0)
    // SIGKILL: no clean-up runs, yet the next opener gets the directory at once, with every
    // message the dead holder acknowledged
    first.kill('SIGKILL')
    expect((await first.exit).signal).toBe('SIGKILL')
    expect(await readBack(dataDir)).toBe(150)
    const third = child(['append', dataDir, mode, 'c', '5', 'exit'])
    expect(await third.reply).toMatchObject({ acked: 5 })
    await third.exit
    expect(await readBack(dataDir)).toBe(155)
  }, 180_000)
})

describe('PGlite directory lock in one process', () => {
  it('a second store on an open directory is refused; close() releases it; the lock does not keep a process alive', async () => {
    const dataDir = await tempDir()
    const a = pgliteStore({ dataDir })
    await a.list()
    const b = pgliteStore({ dataDir })
    const refused = await b.list().catch((error: unknown) => error)
    expect(isStoreUnavailableError(refused) && refused.holder?.pid).toBe(process.pid)
    expect(String(refused)).toContain('this very process')
    await a.close()
    // the refusal was not cached: the same store opens once the directory is free
    expect((await b.list()).conversations).toEqual([])
    await b.close()
    // a process that never closes its store still exits by itself (the socket is unref'd)
    const lingering = child(['append', dataDir, 'auto', 'd', '1', 'linger'])
    expect(await lingering.reply).toMatchObject({ acked: 1 })
    expect(await lingering.exit).toEqual({ code: 0, signal: null })
  }, 120_000)

  it('the file lock (other platforms) leaves no socket file behind after close', async () => {
    const dataDir = await tempDir()
    const store = pgliteStoreWith({ dataDir }, { lockMode: 'file' })
    await store.list()
    expect(statSync(join(dataDir, '.chatrail-lock')).isSocket()).toBe(true)
    await store.close()
    expect(existsSync(join(dataDir, '.chatrail-lock'))).toBe(false)
  }, 60_000)
})
