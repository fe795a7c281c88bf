import { afterEach, describe, expect, it, vi } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { MessageList } from '../../src/controller/message-list.js'
import { historyOf, type AdapterFactory, type Message } from '../../src/index.js'

// `historyOf` (docs/contract.md § Long histories): an adapter reads the newest messages of any
// request without the history-sized copy that reading a long request's `messages` makes.

/** The example of docs/contract.md: answers with the newest user message only. */
const lastUserOnly: AdapterFactory = {
  createSource(request) {
    const history = historyOf(request)
    let newest = ''
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const message = history.at(index)
      if (message?.role === 'user') {
        newest = message.content
        break
      }
    }
    return {
      stream: async function* () {
        yield { type: 'text', content: `You said: ${newest}` }
        yield { type: 'done' }
      },
      abort: () => undefined,
    }
  },
}

const stored = (count: number): Message[] =>
  Array.from({ length: count }, (_, index): Message => ({ id: `s${index}`, role: index % 2 ? 'assistant' : 'user', content: `stored ${index}`, status: 'complete', createdAt: new Date(0) }))

describe('historyOf', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('is the request\'s own messages array for a plain request', () => {
    const messages = stored(3)
    expect(historyOf({ messages })).toBe(messages)
  })

  it('the documented adapter answers from the newest user message, short or long, and builds no history array when long', async () => {
    for (const count of [2, 1000]) {
      const copy = vi.spyOn(MessageList.prototype, 'copy')
      const controller = createChatController({ adapter: lastUserOnly, initialMessages: stored(count) })
      await controller.send('hello')
      expect(controller.getState().messages.at(-1)?.content).toBe('You said: hello')
      // A short request is copied at once (cheaper than the accessor); a long one never.
      expect(copy).toHaveBeenCalledTimes(count < 256 ? 1 : 0)
      copy.mockRestore()
    }
  })
})
