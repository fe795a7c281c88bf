import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startServe } from '../../src/cli/serve.js'
import { fromLoopback } from '../../src/cli/serve/serve-http.js'

// `startServe`, the body of `chatrail serve`, in process: `--agent` replaces the definition's own
// adapter (here the offline adapter: no process, no network).
describe('chatrail serve --agent', () => {
  it('answers unmatched input with the named agent instead of the definition\'s fallback', async () => {
    const lines: string[] = []
    const io = { stdout: (line: string) => lines.push(line), stderr: (line: string) => lines.push(`stderr: ${line}`), cwd: process.cwd(), env: {} }
    const started = await startServe({ module: 'examples/support-bot/definition.ts', store: { kind: 'memory' }, port: 0, host: '127.0.0.1', agent: 'offline' }, io)
    try {
      expect(lines).toContain('agent: offline adapter (chosen with --agent offline)')
      const response = await fetch(`${started.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'o1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'what is the meaning of life' }] }] }),
      })
      const parts = (await response.text()).split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string; data?: { trace?: { kind: string } } })
      expect(parts.map((part) => part.delta ?? '').join('')).toContain('No agent is connected (offline demo adapter)')
      expect(parts.find((part) => part.type === 'data-chatrail')?.data?.trace?.kind).toBe('agentic')
    } finally {
      await started.close()
    }
    expect(lines.filter((line) => line.startsWith('stderr:'))).toEqual([])
  }, 60_000)
})

describe('chatrail serve without a token answers only loopback names (DNS rebinding)', () => {
  const post = (url: string, headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const target = new URL('/api/chat', url)
      const body = JSON.stringify({ id: 'r1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '/start' }] }] })
      const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end(body)
    })

  it('refuses a foreign Host or Origin with 421 and serves 127.0.0.1, localhost and their pages', async () => {
    const io = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd(), env: {} }
    const started = await startServe({ module: 'examples/support-bot/definition.ts', store: { kind: 'memory' }, port: 0, host: '127.0.0.1' }, io)
    try {
      const port = new URL(started.url).port
      expect(await post(started.url, { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` })).toBe(421)
      expect(await post(started.url, { host: `127.0.0.1:${port}`, origin: `http://attacker.example:${port}` })).toBe(421)
      expect(await post(started.url, { host: `attacker.example:${port}` })).toBe(421)
      expect(await post(started.url, { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).toBe(200)
      expect(await post(started.url, { host: `localhost:${port}` })).toBe(200)
      expect(fromLoopback({ headers: { host: `[::1]:${port}`, origin: `http://localhost:${port}` } })).toBe(true)
      expect(fromLoopback({ headers: {} })).toBe(false)
    } finally {
      await started.close()
    }
  }, 60_000)
})
