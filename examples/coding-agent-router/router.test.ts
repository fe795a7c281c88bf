import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { listDescendantPids } from '../../src/agents/process/kill-process-tree.js'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession } from '../../src/index.js'
import { startAnthropicServer } from '../../test/support/anthropic-server.js'
import { CLAUDE_BIN, claudeEnv, makeClaudeHome } from '../../test/support/claude-cli.js'
import { codexBin, createCodexWorkspace } from '../../test/support/codex-cli.js'
import { respond, say, startOpenAIServer } from '../../test/support/openai-server.js'
import { answerFromLine } from './dialog-input.js'
import { createCodingAgentRouter, HELP_TEXT } from './router.js'
import type { RouterOptions } from './router.js'
import { parseRouterArgs } from './router-args.js'

/** The coding-agent router, offline: the real CLIs against the scripted model servers of test/support. */

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  // A turn's stream ends at its terminal chunk; let the CLI finish writing before its HOME goes.
  const deadline = Date.now() + 15_000
  while (agentProcesses().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Claude Code / Codex processes this test started that are still running. */
function agentProcesses(): number[] {
  return listDescendantPids(process.pid).filter((pid) => {
    try {
      return /claude|codex/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
    } catch {
      return false
    }
  })
}

function chat(options: RouterOptions) {
  const router = createCodingAgentRouter(options)
  const session = createChatSession(router.definition)
  const controller = createChatController(session.chat)
  controller.subscribe(() => session.sync(controller.getState().messages))
  const ask = async (text: string): Promise<string> => {
    await controller.send(text)
    return controller.getState().messages.at(-1)?.content ?? ''
  }
  return { router, session, controller, ask }
}

describe('coding-agent router', () => {
  it('answers /help, /status and /diff without a model; everything else goes to Claude Code', async () => {
    const server = await startAnthropicServer({ turns: [{ content: [{ type: 'text', text: 'Renamed it.' }] }] })
    const home = makeClaudeHome('chatrail-router-')
    cleanups.push(() => home.cleanup(), () => server.close())
    execFileSync('git', ['init', '-q'], { cwd: home.cwd })
    writeFileSync(join(home.cwd, 'notes.txt'), 'old line\n')
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', 'notes.txt'], { cwd: home.cwd })
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init'], { cwd: home.cwd })
    writeFileSync(join(home.cwd, 'notes.txt'), 'new line\n')

    const { ask, session } = chat({ agent: 'claude-code', cwd: home.cwd, claudeCode: { bin: CLAUDE_BIN, env: claudeEnv(home.home, server.url) } })
    expect(await ask('/help')).toBe(HELP_TEXT)
    expect(await ask('/status')).toBe('Claude Code: not started yet.')
    const diff = await ask('/diff')
    expect(diff).toContain('-old line')
    expect(diff).toContain('+new line')
    expect(server.requests).toHaveLength(0)

    expect(await ask('Rename the function')).toBe('Renamed it.')
    const status = await ask('/status')
    expect(status).toMatch(/^Claude Code: needs_input \(completed\)/)
    expect(status).toMatch(/Session: [0-9a-f-]{36}/)
    expect(session.traces().map((trace) => trace.kind)).toEqual(['deterministic', 'deterministic', 'deterministic', 'agentic', 'deterministic'])
  }, 90_000)

  it('with --codex, tasks go to Codex; /diff outside a git repository says why', async () => {
    const server = await startOpenAIServer([respond(say('Codex did it.'))])
    const workspace = createCodexWorkspace({ baseUrl: server.baseUrl })
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'chatrail-router-plain-')))
    cleanups.push(() => rmSync(plain, { recursive: true, force: true }), () => workspace.cleanup(), () => server.close())
    const args = parseRouterArgs(['--codex', '--cwd', workspace.cwd], '/elsewhere')
    expect(args).toEqual({ agent: 'codex', cwd: workspace.cwd })
    const { ask } = chat({ ...args, codex: { bin: codexBin, codexHome: workspace.codexHome, env: { SCRIPTED_API_KEY: 'scripted-key' } } })
    expect(await ask('Do the task')).toBe('Codex did it.')
    expect(await ask('/status')).toMatch(/^Codex: needs_input \(completed\)\nSession: [0-9a-f-]{36}/)
    const elsewhere = chat({ agent: 'codex', cwd: plain, codex: { bin: codexBin } })
    expect(await elsewhere.ask('/diff')).toMatch(/^git diff failed: .*not a git repository/i)
  }, 90_000)

  it('runs as a terminal chat: typed lines in, the reply and the agent state out', async () => {
    const server = await startOpenAIServer([respond(say('Hello from Codex.'))])
    const workspace = createCodexWorkspace({ baseUrl: server.baseUrl })
    cleanups.push(() => workspace.cleanup(), () => server.close())
    const main = resolve('examples/coding-agent-router/main.ts')
    const child = spawn(process.execPath, ['--import', 'tsx', main, '--codex', '--cwd', workspace.cwd, '--bin', codexBin], {
      env: { ...process.env, CODEX_HOME: workspace.codexHome, SCRIPTED_API_KEY: 'scripted-key' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
    child.stdin.end('/help\nSay hello\n/status\n')
    const code = await new Promise<number | null>((done) => child.on('close', done))
    expect(code).toBe(0)
    expect(out).toContain('Codex in')
    expect(out).toContain('/diff    `git diff` of the project')
    expect(out).toContain('Hello from Codex.')
    expect(out).toContain('[Codex: working/running]')
    expect(out).toContain('Codex: needs_input (completed)')
  }, 90_000)
})

describe('answerFromLine', () => {
  const question = { toolId: 't', kind: 'question' as const, prompt: 'Which color?', options: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Other', isOther: true }], multiSelect: true, answerable: true }
  const plan = { toolId: 'p', kind: 'plan' as const, prompt: '# Plan', options: [], multiSelect: false, answerable: true }

  it('reads option numbers, free text, and y / n [feedback]', () => {
    expect(answerFromLine(question, '2')).toEqual({ kind: 'question', answers: [{ question: 'Which color?', chosen: ['Blue'] }] })
    expect(answerFromLine(question, '1, 2')).toEqual({ kind: 'question', answers: [{ question: 'Which color?', chosen: ['Red', 'Blue'] }] })
    expect(answerFromLine(question, '3')).toEqual({ kind: 'question', answers: [{ question: 'Which color?', chosen: [], otherText: '3' }] })
    expect(answerFromLine(question, 'teal')).toEqual({ kind: 'question', answers: [{ question: 'Which color?', chosen: [], otherText: 'teal' }] })
    expect(answerFromLine(plan, 'y')).toEqual({ kind: 'plan', approved: true })
    expect(answerFromLine(plan, 'n')).toEqual({ kind: 'plan', approved: false })
    expect(answerFromLine(plan, 'no keep it small')).toEqual({ kind: 'plan', approved: false, feedback: 'keep it small' })
  })
})
