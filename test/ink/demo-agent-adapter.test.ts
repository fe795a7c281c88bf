import { describe, expect, it } from 'vitest'
import { isLiveAgentAdapter } from '../../src/contract/live-agent-adapter.js'
import { loadAgentAdapter } from '../../src/cli/demo/agent-adapter.js'
import { offlineReply } from '../../src/cli/demo/offline-adapter.js'
import { commandRoute } from '../../src/index.js'

const routes = [commandRoute({ id: 'start', command: '/start', event: 'begin', response: 'Hi', description: 'Begin' })]

describe('loadAgentAdapter', () => {
  it('gives the coding agents as live agent adapters (run state in the status line), without starting them', async () => {
    const claude = await loadAgentAdapter({ agent: 'claude-code', bin: '/nonexistent/claude', reason: '' }, routes, process.cwd())
    const codex = await loadAgentAdapter({ agent: 'codex', bin: '/nonexistent/codex', reason: '' }, routes, process.cwd())
    expect(isLiveAgentAdapter(claude)).toBe(true)
    expect(isLiveAgentAdapter(codex)).toBe(true)
  })

  it('gives the offline adapter, answering from the routes given', async () => {
    const offline = await loadAgentAdapter({ agent: 'offline', reason: '' }, routes, process.cwd())
    expect(isLiveAgentAdapter(offline)).toBe(false)
    const source = offline.createSource({ messages: [{ id: 'u', role: 'user', content: 'hm?', status: 'complete', createdAt: new Date(0) }] })
    let text = ''
    for await (const chunk of source.stream()) text += chunk.content ?? ''
    expect(text).toBe(offlineReply(routes, 'hm?'))
  })
})
