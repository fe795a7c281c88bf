import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveDemoAgent } from '../../src/cli/demo/resolve-demo-agent.js'

/**
 * The agent choice against stand-in `claude` / `codex` executables on a private PATH: small
 * node scripts that answer, refuse, or hang like the real CLIs do, so the decision and its
 * time bound are tested without a model or a network.
 */

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function binFolder(scripts: Record<string, string>): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-demo-bin-'))
  folders.push(dir)
  for (const [name, body] of Object.entries(scripts)) {
    const file = join(dir, name)
    writeFileSync(file, `#!${process.execPath}\n${body}\n`)
    chmodSync(file, 0o755)
  }
  return { dir, env: { PATH: `${dir}:${dirname(process.execPath)}` } }
}

const claudeAnswers = `
let input = ''
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  if (!process.argv.includes('-p') || !input.includes('ready')) process.exit(3)
  console.log(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'ready' }))
})`
const claudeSignedOut = `
console.log(JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'Not logged in · Please run /login' }))
process.exit(1)`
const hangs = (pidFile: string) => `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`
const codexAnswers = `
const args = process.argv.slice(2)
if (args[0] === 'login') process.exit(0)
console.log(JSON.stringify({ type: 'thread.started', thread_id: 't1' }))
console.log(JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } }))
setInterval(() => {}, 1000)`
const codexSignedOut = `process.exit(process.argv[2] === 'login' ? 1 : 4)`

const resolve = (env: NodeJS.ProcessEnv, requested: 'auto' | 'claude-code' | 'codex' | 'opencode' | 'offline' = 'auto', timeoutMs = 5000) =>
  resolveDemoAgent({ requested, env, cwd: process.cwd(), timeoutMs })

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('resolveDemoAgent', () => {
  it('picks Claude Code when `claude` answers the probe', async () => {
    const { env, dir } = binFolder({ claude: claudeAnswers, codex: codexAnswers })
    const choice = await resolve(env)
    expect(choice).toMatchObject({ agent: 'claude-code', bin: join(dir, 'claude') })
    expect(choice.reason).toMatch(/^claude-code \(claude answered in \d+\.\d s\)$/)
  })

  it('falls to Codex when claude is signed out, and says why', async () => {
    const { env } = binFolder({ claude: claudeSignedOut, codex: codexAnswers })
    const choice = await resolve(env)
    expect(choice.agent).toBe('codex')
    expect(choice.reason).toMatch(/^codex \(codex answered in \d+\.\d s\)\n {2}claude: Not logged in · Please run \/login$/)
  })

  it('falls to the offline adapter when nothing answers (installed is not answering)', async () => {
    const { env } = binFolder({ claude: claudeSignedOut, codex: codexSignedOut })
    expect(await resolve(env)).toEqual({
      agent: 'offline',
      reason: 'offline adapter (no agent answered)\n  claude: Not logged in · Please run /login\n  codex: not signed in (codex login status)\n  opencode: `opencode` not on PATH',
    })
    expect((await resolve({ PATH: '/nonexistent' })).reason).toBe(
      'offline adapter (no agent answered)\n  claude: `claude` not on PATH\n  codex: `codex` not on PATH\n  opencode: `opencode` not on PATH',
    )
  })

  it('falls to OpenCode after Claude Code and Codex, and to offline when it refuses too', async () => {
    const opencodeAnswers = `
let input = ''
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  if (process.argv[2] !== 'run' || !input.includes('ready')) process.exit(3)
  console.log(JSON.stringify({ type: 'text', part: { type: 'text', text: 'ready' } }))
})`
    const opencodeRefuses = `console.log(JSON.stringify({ type: 'error', error: { name: 'APIError', data: { message: 'invalid x-api-key' } } })); process.exit(1)`
    const answering = binFolder({ claude: claudeSignedOut, codex: codexSignedOut, opencode: opencodeAnswers })
    // Unconfigured (no config, no credentials): not even started, so a fresh machine stays fast.
    expect((await resolve(answering.env)).reason).toContain('opencode: not configured')
    const configured = { ...answering.env, OPENCODE_CONFIG_CONTENT: '{}' }
    const choice = await resolve(configured)
    expect(choice).toMatchObject({ agent: 'opencode', bin: join(answering.dir, 'opencode') })
    expect(choice.reason).toMatch(/^opencode \(opencode answered in \d+\.\d s\)\n {2}claude: Not logged in · Please run \/login\n {2}codex: not signed in \(codex login status\)$/)
    const refusing = binFolder({ claude: claudeSignedOut, codex: codexSignedOut, opencode: opencodeRefuses })
    expect((await resolve({ ...refusing.env, OPENCODE_CONFIG_CONTENT: '{}' })).reason).toBe(
      'offline adapter (no agent answered)\n  claude: Not logged in · Please run /login\n  codex: not signed in (codex login status)\n  opencode: invalid x-api-key',
    )
    expect(await resolve(answering.env, 'opencode')).toMatchObject({ agent: 'opencode', reason: 'opencode (chosen with --agent opencode, not probed)' })
  })

  it('bounds a hanging probe by the timeout and ends the hung process', async () => {
    const pidFile = join(tmpdir(), `chatrail-hang-${process.pid}-${Date.now()}`)
    const { env } = binFolder({ claude: hangs(pidFile) })
    const started = Date.now()
    const choice = await resolve(env, 'auto', 1200)
    const elapsed = Date.now() - started
    expect(choice.agent).toBe('offline')
    expect(choice.reason).toContain('claude: no answer within 1.2 s')
    expect(elapsed).toBeGreaterThanOrEqual(1150)
    expect(elapsed).toBeLessThan(4000)
    const pid = Number(readFileSync(pidFile, 'utf8'))
    rmSync(pidFile)
    await new Promise((r) => setTimeout(r, 100))
    expect(alive(pid)).toBe(false)
  })

  it('never probes a forced choice, and refuses a forced CLI that is not on PATH', async () => {
    const { env, dir } = binFolder({ claude: 'process.exit(9)' })
    expect(await resolve(env, 'claude-code')).toEqual({
      agent: 'claude-code',
      bin: join(dir, 'claude'),
      reason: 'claude-code (chosen with --agent claude-code, not probed)',
    })
    expect(await resolve(env, 'offline')).toEqual({ agent: 'offline', reason: 'offline adapter (chosen with --agent offline)' })
    await expect(resolve(env, 'codex')).rejects.toMatchObject({
      code: 'DEMO_AGENT_NOT_FOUND',
      message: '--agent codex: `codex` is not on PATH',
      hint: expect.stringContaining('--agent offline'),
    })
  })
})
