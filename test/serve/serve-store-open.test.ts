import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cliBundle, scriptBundle } from '../support/cli-bundle.js'
import { repoRoot, startServeProcess } from './serve-process.js'

// `chatrail serve` opens (and migrates) its store before it says "listening": a store that cannot
// open is exit 1 with one line naming the cause and the fix, never a server that answers every
// request 500 or 503. And the port is bound before the store is touched, so a port in use leaves
// the store's directory as it was.

// Built to plain JavaScript (test/support/cli-bundle.ts): the CLI imports it without tsx, which
// cost each start about a second of CPU. Loading a TypeScript definition is covered in
// serve-command.test.ts; here the subject is the store.
const definition = await scriptBundle('examples/support-bot/definition.ts')
// the CLI built once with esbuild and started with plain node (test/support/cli-bundle.ts): a tsx
// start cost 1–2 s per process, five of them here before a store was even touched
const cli = await cliBundle()
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-serve-open-'))
  dirs.push(dir)
  return dir
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** The CLI as a real process to its exit (bounded: SIGKILL after 90 s). */
function serveToExit(args: readonly string[], nodeArgs: readonly string[] = []): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', ...args], { cwd: repoRoot, env: { ...process.env, CHATRAIL_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data: Buffer) => { stdout += data.toString() })
    child.stderr.on('data', (data: Buffer) => { stderr += data.toString() })
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

function listenOnFreePort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }))
  })
}

describe('chatrail serve opens its store before listening', () => {
  it('without the optional peer @electric-sql/pglite: exit 1, one line naming the install command, nothing created', async () => {
    const dataDir = join(tempDir(), 'store')
    const ran = await serveToExit([definition, '--port', '0', '--store', `pglite:${dataDir}`], ['--import', './test/serve/fixtures/hide-pglite.mjs'])
    expect(ran.code).toBe(1)
    expect(ran.stdout).not.toContain('listening on')
    expect(ran.stdout).not.toContain('store: PGlite')
    const lines = ran.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^chatrail serve: the store did not open: .*@electric-sql\/pglite.*not installed.*npm install @electric-sql\/pglite/)
    expect(existsSync(dataDir)).toBe(false)
  }, 120_000)

  it('a PGlite directory that cannot be created: exit 1 naming the directory', async () => {
    const blocker = join(tempDir(), 'a-file')
    writeFileSync(blocker, 'not a directory')
    const dataDir = join(blocker, 'a', 'b')
    const ran = await serveToExit([definition, '--port', '0', '--store', `pglite:${dataDir}`])
    expect(ran.code).toBe(1)
    expect(ran.stdout).not.toContain('listening on')
    const lines = ran.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`The PGlite directory ${dataDir} does not exist and a part of its path is a file, not a directory`)
  }, 120_000)

  it('a Postgres that refuses connections: exit 1 naming the refusal', async () => {
    // a port that was free a moment ago and has nothing listening now
    const { server, port } = await listenOnFreePort()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    const ran = await serveToExit([definition, '--port', '0', '--store', `postgres://chatrail@127.0.0.1:${port}/chatrail`])
    expect(ran.code).toBe(1)
    expect(ran.stdout).not.toContain('listening on')
    expect(ran.stderr.trim().split('\n')).toHaveLength(1)
    expect(ran.stderr).toContain('ECONNREFUSED')
    expect(ran.stderr).toContain('Check that the database is running')
  }, 120_000)

  it('a port in use: exit 1 and the store directory untouched (not created, not locked, not migrated)', async () => {
    const { server, port } = await listenOnFreePort()
    try {
      const dataDir = join(tempDir(), 'store')
      const ran = await serveToExit([definition, '--port', String(port), '--store', `pglite:${dataDir}`])
      expect(ran.code).toBe(1)
      expect(ran.stderr).toContain('EADDRINUSE')
      expect(existsSync(dataDir)).toBe(false)
    } finally {
      server.close()
    }
  }, 120_000)

  it('a PGlite directory another serve holds: the second exits 1 before listening, naming the first; the first keeps serving', async () => {
    const dataDir = join(tempDir(), 'store')
    // a new PGlite (initdb and migrations before it listens): up to a minute and more on a loaded machine
    const first = await startServeProcess([definition, '--port', '0', '--store', `pglite:${dataDir}`], {}, 150_000)
    try {
      // warm: the database exists and is migrated by the time it says it listens
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true)
      const second = await serveToExit([definition, '--port', '0', '--store', `pglite:${dataDir}`])
      expect(second.code).toBe(1)
      expect(second.stdout).not.toContain('listening on')
      expect(second.stderr).toContain(`is in use by process ${String(first.child.pid)} (node `)
      expect(second.stderr).toContain(`${basename(cli)} serve`)
      const response = await fetch(`${first.url}/api/chat?id=c1`)
      expect(response.status).toBe(200)
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0)
    }
    // stopped cleanly: the directory is free again
    const again = await startServeProcess([definition, '--port', '0', '--store', `pglite:${dataDir}`])
    expect(await again.stop('SIGTERM')).toBe(0)
  }, 240_000)
})
