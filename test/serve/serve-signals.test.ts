import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliBundle, scriptBundle } from '../support/cli-bundle.js'
import { repoRoot } from './serve-process.js'

// `npx chatrail serve …` killed by SIGTERM left its node child holding the port: npm passes the
// signal to the `sh -c` it runs the bin under, and sh dies without passing it on. Each documented
// way of running it is started here in its own session, SIGTERMed at its top process only (as a
// service manager or `kill <pid>` would), and must leave the port free and no process behind.

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
let app: string
// The example definition built to plain JavaScript (test/support/cli-bundle.ts), so the CLI imports
// it without tsx (a second of CPU a start); `npm run serve in this checkout` loads the TypeScript.
let builtDefinition: string

beforeAll(async () => {
  const cli = await cliBundle()
  builtDefinition = await scriptBundle('examples/support-bot/definition.ts')
  mkdirSync(join(repoRoot, 'test-output'), { recursive: true })
  // inside the checkout, so the example definition and tsx (which loads it) resolve from it
  app = mkdtempSync(join(repoRoot, 'test-output', 'serve-signals-'))
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true })
  // what npm links for an installed chatrail: one process that is the CLI (here its build,
  // test/support/cli-bundle.ts, as the published bin runs dist; `npm run serve in this checkout`
  // below runs the source through tsx)
  const bin = join(app, 'node_modules', '.bin', 'chatrail')
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`)
  chmodSync(bin, 0o755)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'serve-signals', private: true, type: 'module', scripts: { serve: 'exec chatrail serve' } }))
})
afterAll(() => rmSync(app, { recursive: true, force: true }))

/** Pids in the session `sid` (the started command and everything under it), from /proc. */
function sessionMembers(sid: number): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // fields after the command's closing parenthesis: state ppid pgrp session …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[3]) === sid) pids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return pids
}

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Starts `command` in its own session in `cwd`, waits for `listening on`, SIGTERMs the top process, and reports what is left. */
async function sigtermLeavesNothing(command: string, args: readonly string[], cwd: string, definition = builtDefinition): Promise<{ output: string; left: number[]; free: boolean }> {
  const child: ChildProcess = spawn(command, [...args, definition, '--port', '0', '--store', 'memory'], {
    cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CHATRAIL_TOKEN: '' },
  })
  const sid = child.pid as number
  let output = ''
  child.stdout?.on('data', (data: Buffer) => { output += data.toString() })
  child.stderr?.on('data', (data: Buffer) => { output += data.toString() })
  try {
    if (!(await until(() => child.exitCode !== null || /listening on http:\/\/127\.0\.0\.1:\d+/.test(output), 90_000)) || child.exitCode !== null) throw new Error(`no listening line: ${output}`)
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1])
    child.kill('SIGTERM')
    await until(() => sessionMembers(sid).length === 0, 20_000)
    return { output, left: sessionMembers(sid), free: await portFree(port) }
  } finally {
    for (const pid of sessionMembers(sid)) process.kill(pid, 'SIGKILL')
  }
}

describe('chatrail serve stops on SIGTERM however it was started', () => {
  it('node_modules/.bin/chatrail serve (the documented way)', async () => {
    const result = await sigtermLeavesNothing(join(app, 'node_modules', '.bin', 'chatrail'), ['serve'], repoRoot)
    expect(result.left).toEqual([])
    expect(result.free).toBe(true)
    expect(result.output).toContain('stopping…')
  }, 120_000)

  it('npx chatrail serve: the server sees npm gone and stops', async () => {
    const result = await sigtermLeavesNothing('npx', ['--prefix', app, '--no-install', 'chatrail', 'serve'], repoRoot)
    expect(result.left).toEqual([])
    expect(result.free).toBe(true)
    expect(result.output).toContain('stopping… (the npm process that started it is gone)')
  }, 120_000)

  it('npm run serve with an exec script ("serve": "exec chatrail serve")', async () => {
    const result = await sigtermLeavesNothing('npm', ['run', '--silent', 'serve', '--', '--store', 'memory'], app)
    expect(result.left).toEqual([])
    expect(result.free).toBe(true)
  }, 120_000)

  const script = manifest.scripts.serve ?? ''
  it.skipIf(!script.startsWith('exec '))(`npm run serve in this checkout${script.startsWith('exec ') ? '' : ` — skipped: package.json's serve script (${script}) does not exec, so npm's sh swallows the signal (docs/serve.md)`}`, async () => {
    const result = await sigtermLeavesNothing('npm', ['run', '--silent', 'serve', '--'], repoRoot, join(repoRoot, 'examples', 'support-bot', 'definition.ts'))
    expect(result.left).toEqual([])
    expect(result.free).toBe(true)
  }, 120_000)
})
