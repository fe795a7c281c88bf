import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * `routeTimeoutMs` in a real process (issue 27 item 2): a script whose only pending work is a route
 * that never settles must answer the fallback when the timeout fires. With an unref'd timer Node
 * saw nothing keeping it alive and quit with exit code 13 (an unsettled top-level await) and no
 * output. The timer must also be cleared once the route settles: a settled turn must not keep the
 * process alive for the rest of `routeTimeoutMs`.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'chatrail-route-timeout-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const script = (response: string, routeTimeoutMs: number): string => `
import { createChatSession, defineChat, route } from ${JSON.stringify(join(root, 'src', 'index.ts'))}

const definition = defineChat({
  id: 'hang',
  chat: {},
  conversation: {
    initial: 'idle',
    states: { idle: { on: { go: 'busy' } }, busy: {} },
    routeTimeoutMs: ${routeTimeoutMs},
    routes: [route({ id: 'lookup', match: (input) => input === 'go', event: 'go', response: ${response} })],
    fallback: { response: 'Fallback: the lookup took too long.' },
  },
})
const session = createChatSession(definition, { lint: false })
const messages = [{ id: 'm1', role: 'user', content: 'go', status: 'complete', createdAt: new Date(0) }]
let reply = ''
for await (const chunk of session.chat.adapter.createSource({ messages }).stream()) if (chunk.type === 'text') reply += chunk.content
console.log(JSON.stringify({ reply, outcome: session.traces().at(-1)?.outcome }))
`

interface Exit {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

function runScript(name: string, source: string): Promise<Exit> {
  const file = join(dir, name)
  writeFileSync(file, source)
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()))
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
    // A bound, not a sync: a process still running after a minute has failed either way.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(guard)
      resolve({ code, stdout: stdout.trim(), stderr, ms: Date.now() - started })
    })
  })
}

describe('route timeouts in a real process', () => {
  it('a route that never settles, with nothing else pending: the process waits for the timeout and answers the fallback', async () => {
    const exit = await runScript('hang.mts', script('() => new Promise(() => {})', 500))
    expect({ code: exit.code, stdout: exit.stdout }).toEqual({ code: 0, stdout: JSON.stringify({ reply: 'Fallback: the lookup took too long.', outcome: 'timeout' }) })
  }, 90_000)

  it('a route that settles: the process exits at once, not when the timeout would have fired', async () => {
    // A baseline for how long tsx takes to start and run a turn here (the machine may be loaded).
    const baseline = await runScript('sync.mts', script("'Found it.'", 120_000))
    const exit = await runScript('settles.mts', script("() => new Promise((resolve) => setTimeout(() => resolve('Found it.'), 50))", 120_000))
    expect({ code: exit.code, stdout: exit.stdout }).toEqual({ code: 0, stdout: JSON.stringify({ reply: 'Found it.', outcome: 'ok' }) })
    expect(baseline.code).toBe(0)
    // 120 s of timeout left when the route settled: exiting within a minute proves the timer was cleared.
    expect(exit.ms).toBeLessThan(Math.max(60_000, baseline.ms * 10))
  }, 150_000)
})
