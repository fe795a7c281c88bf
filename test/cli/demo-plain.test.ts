import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pty from 'node-pty'
import { describe, expect, it } from 'vitest'
import { demoReply } from '../../src/cli/demo-plain.js'

// `npm start` is `tsx src/cli/main.ts demo`: these tests spawn exactly that (≈1–2 s each).
const root = fileURLToPath(new URL('../../', import.meta.url))
const tsx = `${root}node_modules/.bin/tsx`

interface Finished {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

function runDemo(stdin: string, args: string[] = ['--delay', '0']): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['src/cli/main.ts', 'demo', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()))
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }))
    child.stdin.end(stdin)
  })
}

describe('chatrail demo (plain), spawned like npm start', () => {
  it('converses over piped stdin, finishes the last reply on EOF, and exits 0', async () => {
    const result = await runDemo('hello\nwhat is chatrail?\n/retry\n')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const replies = result.stdout.split('\n').filter((line) => line.startsWith('bot> '))
    expect(replies).toEqual([
      'bot> Hello! I am the chatrail plain demo. Ask me anything, or type /help.',
      'bot> You said "what is chatrail?". That is message 2 of this conversation; a scripted adapter streamed this reply through the controller.',
      'bot> You said "what is chatrail?". That is message 2 of this conversation; a scripted adapter streamed this reply through the controller.',
    ])
    expect(result.stdout.trimEnd().endsWith('bye')).toBe(true)
  }, 30_000)

  it('clears the conversation on /clear and stops reading at /exit', async () => {
    const result = await runDemo('one\n/clear\ntwo\n/exit\nthree\n')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('(conversation cleared)')
    expect(result.stdout).toContain('You said "two". That is message 1')
    expect(result.stdout).not.toContain('"three"')
  }, 30_000)

  it('stops a streaming reply on SIGINT and exits 0', async () => {
    // Without the tsx wrapper: tsx SIGKILLs a child that does not confirm a relayed signal within
    // 30 ms, which a loaded machine can miss; the demo's own handling is what is under test.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', '--delay', '200'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let interrupted = false
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString()
      if (!interrupted && stdout.includes('bot> Hello!')) {
        interrupted = true
        child.kill('SIGINT')
      }
    })
    child.stdin.write('hello\n')
    expect(await exited).toBe(0)
    expect(stdout).not.toContain('Ask me anything') // the reply was cut short
    expect(stdout.trimEnd().endsWith('bye')).toBe(true)
  }, 30_000)

  /** Types `hello`, then `key` once the reply starts streaming; resolves the exit code and screen. */
  function inTerminal(key: string): Promise<{ code: number; screen: string }> {
    const term = pty.spawn(tsx, ['src/cli/main.ts', 'demo', '--delay', '200'], { cwd: root, cols: 120, rows: 30, env: process.env })
    let screen = ''
    let typed = false
    let pressed = false
    term.onData((data) => {
      screen += data
      if (!typed && screen.includes('you> ')) {
        typed = true
        term.write('hello\r')
      }
      if (!pressed && screen.includes('bot> Hello!')) {
        pressed = true
        term.write(key)
      }
    })
    return new Promise((resolve) => term.onExit(({ exitCode }) => resolve({ code: exitCode, screen })))
  }

  it('in a real terminal: Ctrl+C stops the streaming reply and exits 0', async () => {
    const { code, screen } = await inTerminal('\u0003')
    expect(code).toBe(0)
    expect(screen).not.toContain('Ask me anything')
    expect(screen.trimEnd().endsWith('bye')).toBe(true)
  }, 30_000)

  it('in a real terminal: Ctrl+D lets the reply finish, then exits 0', async () => {
    const { code, screen } = await inTerminal('\u0004')
    expect(code).toBe(0)
    expect(screen).toContain('Ask me anything, or type /help.')
    expect(screen.trimEnd().endsWith('bye')).toBe(true)
  }, 30_000)

  it('rejects a bad --delay with exit 2 and the usage', async () => {
    const result = await runDemo('', ['--delay', 'soon'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--delay needs a number of milliseconds')
  }, 30_000)

  it('replies as a pure function of the history', () => {
    const at = new Date(0)
    const request = { messages: [{ id: 'u', role: 'user' as const, content: 'hi there', status: 'complete' as const, createdAt: at }] }
    expect(demoReply(request)).toMatch(/^Hello!/)
    expect(demoReply(request)).toBe(demoReply(request))
    expect(existsSync(tsx)).toBe(true)
  })
})
