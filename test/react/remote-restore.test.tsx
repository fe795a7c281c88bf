// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { preloadMessageUI } from '../../renderers/react/message-ui-loader.js'
import { RemoteChatSession } from '../../renderers/react/remote-chat-session.js'
import { serverSideAgent } from '../../src/view/server-side-agent.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { toolAgent } from '../server/support/agents.js'
import { listen, type Listening } from '../server/support/harness.js'
import { nodeFetch } from './node-fetch.js'
import { remoteDefinition } from './remote-page/remote-definition.js'

// chatrail/react/remote after a reload, against a real chatrail server: a failed answer comes back
// failed, with the banner's Retry (which runs the turn again on the server), and an answer's
// tool calls come back with it.

beforeAll(() => preloadMessageUI())
afterEach(cleanup)

/** Fails after "Partial " on its first call, answers on every later one. */
function flakyAgent(): AdapterFactory & { calls: () => number } {
  let calls = 0
  return {
    calls: () => calls,
    createSource: () => ({
      abort: () => undefined,
      async *stream(): AsyncIterableIterator<StreamChunk> {
        calls += 1
        if (calls === 1) {
          yield { type: 'text', content: 'Partial ' }
          yield { type: 'error', content: 'provider down' }
          return
        }
        yield { type: 'text', content: 'Recovered.' }
        yield { type: 'done' }
      },
    }),
  }
}

let store: ConversationStore
let http: Listening
beforeEach(() => {
  store = memoryStore()
})
afterEach(async () => {
  await http.close()
  await store.close()
})

const page = (conversationId: string) => <RemoteChatSession definition={remoteDefinition(serverSideAgent)} remote={{ api: http.url, conversationId, fetch: nodeFetch }} />
const composer = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })
const assistantArticles = (): HTMLElement[] => screen.getAllByRole('article').filter((article) => article.getAttribute('data-chatrail-role') === 'assistant')

describe('chatrail/react/remote after a reload', () => {
  it('a failed answer is restored as failed, with Retry, which runs the turn again on the server', async () => {
    const agent = flakyAgent()
    http = await listen(createChatHandler({ definition: remoteDefinition(agent), store, authenticate: 'none' }))
    const first = render(page('flaky-1'))
    fireEvent.change(composer(), { target: { value: 'hello' } })
    await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
    await screen.findByRole('alert')
    first.unmount()

    render(page('flaky-1'))
    const banner = await screen.findByRole('alert')
    expect(banner.querySelector('[data-chatrail-error-message]')?.textContent).toBe('The reply failed. AGENT_ERROR')
    const failed = assistantArticles().at(-1) as HTMLElement
    expect(failed.getAttribute('data-chatrail-status')).toBe('error')
    expect(failed.querySelector('[data-chatrail-content]')?.textContent?.trim()).toBe('Partial')
    await act(async () => { fireEvent.click(within(banner).getByRole('button', { name: 'Retry' })) })
    await waitFor(() => expect(assistantArticles().at(-1)?.querySelector('[data-chatrail-content]')?.textContent).toBe('Recovered.'))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(agent.calls()).toBe(2)
    expect((await store.load('flaky-1'))?.messages.map((message) => [message.content, message.status])).toEqual([['hello', 'complete'], ['Recovered.', 'complete']])
  })

  it("an answer's tool calls are restored with it", async () => {
    http = await listen(createChatHandler({ definition: remoteDefinition(toolAgent), store, authenticate: 'none' }))
    const first = render(page('tools-1'))
    fireEvent.change(composer(), { target: { value: 'where is my order?' } })
    await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
    await waitFor(() => expect(assistantArticles().at(-1)?.querySelector('[data-chatrail-content]')?.textContent).toBe('Looking it up.It shipped.'))
    first.unmount()

    render(page('tools-1'))
    await waitFor(() => expect(document.querySelector('[data-chatrail-tool-card]')?.getAttribute('data-chatrail-tool-status')).toBe('complete'))
    expect(document.querySelector('[data-chatrail-tool-name]')?.textContent).toBe('lookup_order')
    expect(assistantArticles().at(-1)?.querySelector('[data-chatrail-content]')?.textContent).toBe('Looking it up.It shipped.')
  })
})
