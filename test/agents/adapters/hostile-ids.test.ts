import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claudeCodeAdapter } from '../../../src/agents/claude-code/adapter/claude-code-adapter.js'
import { buildClaudeArgs } from '../../../src/agents/claude-code/adapter/claude-args.js'
import { createClaudeStreamMapper } from '../../../src/agents/claude-code/adapter/claude-stream-mapper.js'
import { codexAdapter } from '../../../src/agents/codex/adapter/codex-adapter.js'
import { findRolloutByThread } from '../../../src/agents/codex/adapter/rollout-by-thread.js'
import { tempDir } from '../claude-code/transcript-builder.js'
import type { TempDir } from '../claude-code/transcript-builder.js'
import { collect, userMessage } from './support/harness.js'

/**
 * Issue 15 item 10: ids the CLIs print (`session_id`, `thread_id`) became paths and argv elements
 * unchecked. The CLI here is a stand-in that prints a hostile id, the way a compromised or buggy
 * build (or a model-controlled wrapper) could, and logs the argv it was started with.
 */

const HOSTILE_SESSION_IDS = ['../../outside/secret', '../../../outside/secret', '/etc/passwd', '--dangerously-skip-permissions']
const HOSTILE_THREAD_ID = '--dangerously-bypass-approvals-and-sandbox'

let tmp: TempDir
beforeEach(() => {
  tmp = tempDir('chatrail-ids-')
})
afterEach(() => tmp.cleanup())

/** An executable Node script at `name` that logs its argv (one JSON line per run) and prints `lines`. */
function fakeCli(name: string, lines: readonly unknown[], waitForStdinEnd: boolean): { bin: string; argvLog: string } {
  const argvLog = join(tmp.dir, `${name}.argv.jsonl`)
  const bin = join(tmp.dir, name)
  const out = lines.map((line) => JSON.stringify(line)).join('\n')
  writeFileSync(
    bin,
    `#!${process.execPath}
require('node:fs').appendFileSync(${JSON.stringify(argvLog)}, JSON.stringify(process.argv.slice(2)) + '\\n')
process.stdout.write(${JSON.stringify(`${out}\n`)})
${waitForStdinEnd ? "process.stdin.on('data', () => {}); process.stdin.on('end', () => process.exit(0))" : 'process.exit(0)'}
`,
  )
  chmodSync(bin, 0o755)
  return { bin, argvLog }
}

const argvRuns = (log: string): string[][] => readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[])

describe('Claude Code: a session_id that is not a UUID is never a path or an argument', () => {
  it('the mapper ignores it; a UUID is taken', () => {
    for (const id of HOSTILE_SESSION_IDS) {
      const mapper = createClaudeStreamMapper()
      mapper.map({ type: 'system', subtype: 'init', session_id: id })
      expect(mapper.sessionId()).toBeUndefined()
    }
    const mapper = createClaudeStreamMapper()
    mapper.map({ type: 'system', subtype: 'init', session_id: '0b7a3f2e-9c1d-4e5f-8a6b-7c8d9e0f1a2b' })
    expect(mapper.sessionId()).toBe('0b7a3f2e-9c1d-4e5f-8a6b-7c8d9e0f1a2b')
  })

  it('buildClaudeArgs refuses a resume id that is not a UUID', () => {
    for (const id of HOSTILE_SESSION_IDS) expect(() => buildClaudeArgs({ resumeId: id, includePartialMessages: false })).toThrow(/is not a UUID/)
  })

  it.each(HOSTILE_SESSION_IDS)('the adapter reads no transcript outside ~/.claude and resumes nothing for %j', async (id) => {
    const home = join(tmp.dir, 'home')
    const cwd = join(tmp.dir, 'work')
    mkdirSync(join(home, '.claude'), { recursive: true })
    mkdirSync(cwd)
    // Where `projects/<slug>/<id>.jsonl` lands for these ids: a readable transcript outside the projects folder.
    mkdirSync(join(home, 'outside'), { recursive: true })
    mkdirSync(join(home, '.claude', 'outside'), { recursive: true })
    const secret = `${JSON.stringify({ type: 'user', uuid: '11111111-1111-4111-8111-111111111111', sessionId: 's', timestamp: new Date().toISOString(), message: { role: 'user', content: 'the secret' } })}\n`
    for (const dir of [join(home, 'outside'), join(home, '.claude', 'outside')]) writeFileSync(join(dir, 'secret.jsonl'), secret)
    const cli = fakeCli('claude', [
      { type: 'system', subtype: 'init', session_id: id },
      { type: 'result', subtype: 'success', is_error: false, result: 'hello', session_id: id },
    ], true)
    const adapter = claudeCodeAdapter({ cwd, bin: cli.bin, env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, pollMs: 20, graceMs: 500 })
    const first = await collect(adapter.createSource({ messages: [userMessage('one')] }))
    expect(first.at(-1)?.type).toBe('done')
    expect(first.at(-1)?.metadata?.sessionId).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(adapter.agentSessionId()).toBeUndefined()
    expect(JSON.stringify(adapter.agentChat() ?? {})).not.toContain('the secret')
    await collect(adapter.createSource({ messages: [userMessage('two')] }))
    const runs = argvRuns(cli.argvLog)
    expect(runs).toHaveLength(2)
    for (const argv of runs) expect(argv.some((arg) => arg.includes(id))).toBe(false)
  })
})

describe('Codex: a thread_id that is not a UUID is never an argument or a lookup', () => {
  it('the second turn does not pass it to `codex exec resume` (it starts a new thread) and the turn says why', async () => {
    const cli = fakeCli('codex', [
      { type: 'thread.started', thread_id: HOSTILE_THREAD_ID },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'hello' } },
      { type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    ], true)
    const adapter = codexAdapter({ cwd: tmp.dir, bin: cli.bin, codexHome: join(tmp.dir, 'codex-home'), pollMs: 20, graceMs: 500 })
    const first = await collect(adapter.createSource({ messages: [userMessage('one')] }))
    const done = first.at(-1)
    expect(done?.type).toBe('done')
    expect(JSON.stringify(done?.metadata?.warnings)).toContain('Ignored a thread_id that is not a UUID')
    expect(done?.metadata?.threadId).toBeUndefined()
    expect(adapter.agentSessionId()).toBeUndefined()
    await collect(adapter.createSource({ messages: [userMessage('two')] }))
    const runs = argvRuns(cli.argvLog)
    expect(runs).toHaveLength(2)
    expect(runs[1]).not.toContain(HOSTILE_THREAD_ID)
    expect(runs[1]).not.toContain('resume')
  })

  it('findRolloutByThread looks nothing up for an id that is not a UUID', () => {
    const codexHome = join(tmp.dir, 'codex-home')
    mkdirSync(join(codexHome, 'sessions', '2026', '11', '02'), { recursive: true })
    for (const id of [HOSTILE_THREAD_ID, '../../x', '*']) expect(findRolloutByThread(codexHome, id)).toBeUndefined()
  })
})
