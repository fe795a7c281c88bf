import { describe, expect, it } from 'vitest'
import { createOfflineAdapter, offlineReply } from '../../src/cli/demo/offline-adapter.js'
import { commandRoute, eventRoute, patternRoute, route, textRoute } from '../../src/index.js'
import { runAdapterContract } from '../../src/testing/vitest.js'

const routes = [
  commandRoute({ id: 'start', command: '/start', event: 'begin', response: 'Hi', description: 'Begin a support conversation' }),
  textRoute({ id: 'thanks', texts: ['thanks', 'thank you'], event: 'close', response: 'Bye' }),
  patternRoute({ id: 'order', pattern: /^A-\d+$/, event: 'found', states: ['collecting'], response: 'Found', description: 'Look up an order' }),
  eventRoute({ id: 'human', uiEvent: 'escalate', event: 'escalate', response: 'Connecting', description: 'Talk to a person' }),
  route({ id: 'custom', event: 'x', match: () => false, response: 'x' }),
]

const instant = { sleep: () => Promise.resolve() }

runAdapterContract('offline demo adapter', () => createOfflineAdapter(routes, instant), {
  skip: { A9: 'the offline adapter has no failure mode: it answers from the definition alone' },
})

describe('offline demo adapter', () => {
  it('says plainly that no agent is connected and lists every route by how to reach it', () => {
    expect(offlineReply(routes, 'where is my parcel?').split('\n')).toEqual([
      'No agent is connected (offline demo adapter), so nothing here can answer "where is my parcel?" freely.',
      '',
      'This workflow understands:',
      '- /start - Begin a support conversation',
      '- "thanks" or "thank you" - thanks',
      '- Look up an order [in collecting]',
      '- the escalate event (Alt+number) - Talk to a person',
      '- (custom) - custom',
      '',
      'For real answers, sign in to Claude Code or Codex, or set up OpenCode, and restart the demo.',
    ])
  })

  it('streams the reply to the last user message in word chunks, then done', async () => {
    const source = createOfflineAdapter(routes, instant).createSource({
      messages: [
        { id: 'u1', role: 'user', content: 'first', status: 'complete', createdAt: new Date(0) },
        { id: 'a1', role: 'assistant', content: 'x', status: 'complete', createdAt: new Date(0) },
        { id: 'u2', role: 'user', content: 'a very long question that goes on and on well past sixty characters in all', status: 'complete', createdAt: new Date(0) },
      ],
    })
    const chunks = []
    for await (const chunk of source.stream()) chunks.push(chunk)
    expect(chunks.at(-1)).toEqual({ type: 'done' })
    expect(chunks.length).toBeGreaterThan(20)
    const text = chunks.map((chunk) => chunk.content ?? '').join('')
    expect(text).toBe(offlineReply(routes, 'a very long question that goes on and on well past sixty characters in all'))
    expect(text).toContain('"a very long question that goes on and on well past sixty..."')
  })

  it('waits between chunks through the injected sleep, and stops at abort', async () => {
    const waits: number[] = []
    const source = createOfflineAdapter(routes, { chunkDelayMs: 7, sleep: (ms) => { waits.push(ms); return Promise.resolve() } })
      .createSource({ messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }] })
    const iterator = source.stream()
    await iterator.next()
    await iterator.next()
    source.abort()
    const rest = []
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) rest.push(step.value)
    expect(rest).toEqual([])
    expect(waits.every((ms) => ms === 7)).toBe(true)
    expect(waits.length).toBeGreaterThanOrEqual(1)
  })
})
