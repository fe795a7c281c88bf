import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseServeArgs } from '../../src/cli/serve/serve-args.js'
import { readTokenFile } from '../../src/cli/serve/token-file.js'
import { cliBundle, scriptBundle } from '../support/cli-bundle.js'
import { repoRoot, startServeProcess } from './serve-process.js'

// `--token <secret>` is in /proc/<pid>/cmdline for every local user to read. The secret can come
// from a file instead (refused when others may read it, as ssh refuses a private key) or from
// CHATRAIL_TOKEN (a process's environment is readable by its own user only), and --token warns.

// Built to plain JavaScript (test/support/cli-bundle.ts): the CLI imports it without tsx, which
// cost each start about a second of CPU. Loading a TypeScript definition is covered in
// serve-command.test.ts; here the subject is the token.
const definition = await scriptBundle('examples/support-bot/definition.ts')
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
function tokenFile(contents: string, mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-token-'))
  dirs.push(dir)
  const path = join(dir, 'token')
  writeFileSync(path, contents)
  chmodSync(path, mode)
  return path
}

describe('--token-file', () => {
  it('parses: the file is named, --token and --token-file together are a usage error, a file counts as a token for --host', () => {
    expect(parseServeArgs(['bot.ts', '--token-file', 'secret.txt'], { CHATRAIL_TOKEN: 'env' })).toMatchObject({ kind: 'run', options: { tokenFile: 'secret.txt' } })
    expect(parseServeArgs(['bot.ts', '--token-file', 'secret.txt'], { CHATRAIL_TOKEN: 'env' })).not.toMatchObject({ options: { token: 'env' } })
    expect(parseServeArgs(['bot.ts', '--token', 's', '--token-file', 'f'], {})).toEqual({ kind: 'error', message: expect.stringContaining('--token and --token-file both name the secret') })
    expect(parseServeArgs(['bot.ts', '--host', '0.0.0.0', '--token-file', 'f'], {})).toMatchObject({ kind: 'run', options: { host: '0.0.0.0', tokenFile: 'f' } })
    expect(parseServeArgs(['bot.ts', '--token', 's'], {})).toMatchObject({ kind: 'run', options: { token: 's', tokenOnCommandLine: true } })
    expect(parseServeArgs(['bot.ts'], { CHATRAIL_TOKEN: 's' })).not.toHaveProperty('options.tokenOnCommandLine')
  })

  it('reads the secret without surrounding whitespace; refuses a file group or others can read, an empty file, a FIFO, a missing file', () => {
    expect(readTokenFile(tokenFile('s3cret-from-file\n', 0o600))).toEqual({ token: 's3cret-from-file' })
    expect(readTokenFile(tokenFile('s3cret', 0o400))).toEqual({ token: 's3cret' })
    const open = tokenFile('s3cret', 0o644)
    expect(readTokenFile(open)).toEqual({ error: `--token-file ${open} is readable by others (mode 0644): anyone who can read it has the token. Run chmod 600 ${open}` })
    expect(readTokenFile(tokenFile('s3cret', 0o640))).toEqual({ error: expect.stringContaining('(mode 0640)') })
    expect(readTokenFile(tokenFile(' \n', 0o600))).toEqual({ error: expect.stringContaining('is empty') })
    const fifo = join(dirs[0] as string, 'fifo')
    execFileSync('mkfifo', ['-m', '600', fifo])
    expect(readTokenFile(fifo)).toEqual({ error: `--token-file ${fifo} is not a regular file` })
    expect(readTokenFile(join(dirs[0] as string, 'missing'))).toEqual({ error: expect.stringContaining('no such file') })
  })

  it('a serve with --token-file keeps the secret out of /proc/<pid>/cmdline and requires it', async () => {
    const path = tokenFile('s3cret-from-file\n', 0o600)
    const server = await startServeProcess([definition, '--port', '0', '--store', 'memory', '--token-file', path])
    try {
      const cmdline = readFileSync(`/proc/${String(server.child.pid)}/cmdline`, 'utf8')
      expect(cmdline).toContain('--token-file')
      expect(cmdline).not.toContain('s3cret')
      expect(server.stderr()).not.toContain('warning')
      expect((await fetch(`${server.url}/api/chat?id=t1`)).status).toBe(401)
      expect((await fetch(`${server.url}/api/chat?id=t1`, { headers: { authorization: 'Bearer s3cret-from-file' } })).status).toBe(200)
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0)
    }
  }, 60_000)

  it('CHATRAIL_TOKEN keeps it out of the command line too; --token warns that every local user can read it', async () => {
    const fromEnv = await startServeProcess([definition, '--port', '0', '--store', 'memory'], { CHATRAIL_TOKEN: 's3cret-env' })
    try {
      expect(readFileSync(`/proc/${String(fromEnv.child.pid)}/cmdline`, 'utf8')).not.toContain('s3cret')
      expect(fromEnv.stderr()).not.toContain('warning')
      expect((await fetch(`${fromEnv.url}/api/chat?id=t1`, { headers: { authorization: 'Bearer s3cret-env' } })).status).toBe(200)
    } finally {
      await fromEnv.stop('SIGTERM')
    }
    const onLine = await startServeProcess([definition, '--port', '0', '--store', 'memory', '--token', 's3cret-flag'])
    try {
      expect(onLine.stderr()).toContain('chatrail serve: warning: --token puts the secret in the command line, which every local user can read (ps, /proc/<pid>/cmdline); pass it with --token-file <path> (mode 600) or CHATRAIL_TOKEN instead')
      expect(onLine.stderr()).not.toContain('s3cret-flag')
    } finally {
      await onLine.stop('SIGTERM')
    }
  }, 60_000)

  it('a token file others can read: exit 2 before anything starts, naming chmod 600', async () => {
    const path = tokenFile('s3cret', 0o644)
    const cli = await cliBundle()
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, 'serve', definition, '--port', '0', '--store', 'memory', '--token-file', path], { cwd: repoRoot, env: { ...process.env, CHATRAIL_TOKEN: '' } })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (data: Buffer) => { stdout += data.toString() })
      child.stderr.on('data', (data: Buffer) => { stderr += data.toString() })
      child.on('exit', (code) => resolve({ code, stdout, stderr }))
    })
    expect(result.code).toBe(2)
    expect(result.stdout).not.toContain('listening on')
    expect(result.stderr.trim()).toBe(`chatrail serve: --token-file ${path} is readable by others (mode 0644): anyone who can read it has the token. Run chmod 600 ${path}`)
  }, 60_000)
})
