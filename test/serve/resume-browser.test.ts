import { createServer as createTcpServer, connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { StreamChunk } from '../../src/contract/stream.js'
import { buildServePage } from '../../src/cli/serve/build-page.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import type { PageFiles } from '../../src/cli/serve/page-files.js'
import { startServeHttp, type RunningServer } from '../../src/cli/serve/serve-http.js'
import { defineChat } from '../../src/index.js'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { findChromium, launchChromium } from '../react/chromium.js'

// Issue 29, resumable streams without Redis, in a real browser. Two instances of the handler (A and
// B), each behind `chatrail serve`'s HTTP server, share nothing but one store. A turn starts on A
// and its agent holds mid-answer; then either the page is reloaded pointed at instance B, or the
// page's connection is cut (its sockets reset by a TCP proxy in front of A, which then forwards to
// B). The page resumes the turn's stream from B (`GET /api/chat/<id>/stream`), the agent goes on,
// and the answer completes on screen with every part once, in order; the agent ran once. Both
// pages: `useChat({ resume: true })` from @ai-sdk/react (test/serve/use-chat-page) and the page
// `chatrail serve` serves (chatrail/react/remote). Skipped only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const title = chromiumPath === undefined
  ? 'resumable streams in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'resumable streams in chromium'

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet']
const FULL = WORDS.join(' ')
const HELD = WORDS.slice(0, 4).join(' ')

/** The agent: WORDS (a tool call after the fifth), held after the fourth until the test opens it. */
function heldAgent(): { adapter: { createSource: () => { stream: () => AsyncIterableIterator<StreamChunk>; abort: () => void } }; hold: () => () => void; calls: () => number; aborts: () => number } {
  let gate: Promise<void> | undefined
  let calls = 0
  let aborts = 0
  return {
    calls: () => calls,
    aborts: () => aborts,
    hold() {
      let open!: () => void
      gate = new Promise<void>((resolve) => (open = resolve))
      return () => open()
    },
    adapter: {
      createSource: () => ({
        abort: () => void aborts++,
        async *stream() {
          calls++
          for (const [index, word] of WORDS.entries()) {
            yield { type: 'text', content: index === 0 ? word : ` ${word}` }
            if (index === 3 && gate) await gate
            if (index === 4) {
              yield { type: 'tool_call', toolCall: { id: `call-${calls}`, name: 'lookup', args: '{"q":"resume"}' } }
              yield { type: 'tool_result', toolCall: { id: `call-${calls}`, name: 'lookup', args: '{"q":"resume"}', result: '"found"' } }
            }
            await new Promise((resolve) => setTimeout(resolve, 20))
          }
          yield { type: 'done' }
        },
      }),
    },
  }
}

/** A TCP proxy whose connections `cut` resets (RST, as a dropped connection reads in the browser); `target` says where it forwards. */
async function tcpProxy(target: () => number): Promise<{ url: string; cut: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((client) => {
    const upstream = connect(target(), '127.0.0.1')
    sockets.add(client)
    sockets.add(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    const drop = (): void => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    for (const socket of [client, upstream]) socket.on('error', drop).on('close', drop)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => {
      for (const socket of sockets) socket.resetAndDestroy()
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}

const portOf = (server: RunningServer): number => Number(new URL(server.url).port)

describe.skipIf(chromiumPath === undefined)(title, () => {
  const store = memoryStore()
  const agent = heldAgent()
  const definition = defineChat({ id: 'resume-browser', chat: { adapter: agent.adapter }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })
  const resumedOnB: string[] = []
  let browser: Browser
  const servers: RunningServer[] = []
  const pageErrors: string[] = []

  /** Instances A and B of one page kind; B counts the reconnects it serves. */
  async function instances(page: PageFiles): Promise<{ a: RunningServer; b: RunningServer }> {
    const handlerOf = (): ChatHandler => createChatHandler({ definition, store, authenticate: 'none', limits: { partFlushMs: 20, resumePollMs: 20 } })
    const handlerB = handlerOf()
    const counted = (request: Request): Promise<Response> => {
      if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/stream')) resumedOnB.push(new URL(request.url).pathname)
      return handlerB(request)
    }
    const countingB = Object.defineProperties(counted, { close: { value: handlerB.close }, closing: { get: () => handlerB.closing } }) as ChatHandler
    const a = await startServeHttp({ handler: handlerOf(), page, pageConfig: pageConfigOf(definition), authenticate: 'none', host: '127.0.0.1', port: 0, graceMs: 100 })
    const b = await startServeHttp({ handler: countingB, page, pageConfig: pageConfigOf(definition), authenticate: 'none', host: '127.0.0.1', port: 0, graceMs: 100 })
    servers.push(a, b)
    return { a, b }
  }

  interface PageKind {
    readonly name: string
    files: () => Promise<PageFiles>
    /** The page is ready to take a message. */
    ready: (page: Page) => Promise<void>
    /** It finished a turn (after the text was seen complete). */
    settled: (page: Page) => Promise<void>
    replies: (page: Page) => Promise<string[]>
    users: (page: Page) => Promise<string[]>
    /** The parts of the last answer as the page holds them (useChat's part types; the serve page keeps text only). */
    parts: (page: Page) => Promise<string | null>
    expectedParts: string | null
  }

  const useChatPage: PageKind = {
    name: 'useChat({ resume: true })',
    files: () => buildServePage({ entry: fileURLToPath(new URL('./use-chat-page/main.tsx', import.meta.url)) }),
    ready: (page) => page.locator('[data-serve-status="ready"]').waitFor(),
    settled: (page) => page.locator('[data-serve-status="ready"]').waitFor(),
    replies: (page) => page.locator('[data-chatrail-role="assistant"]').allInnerTexts(),
    users: (page) => page.locator('[data-chatrail-role="user"]').allInnerTexts(),
    parts: (page) => page.locator('[data-chatrail-role="assistant"]').last().getAttribute('data-part-types'),
    // every part once, in order: the text before the tool call, the tool, the text after it, the snapshot
    expectedParts: 'text tool-lookup text data-chatrail',
  }
  const servePage: PageKind = {
    name: 'the chatrail serve page (chatrail/react/remote)',
    files: () => buildServePage(),
    ready: (page) => page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor(),
    settled: (page) => page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor(),
    replies: (page) => page.locator('[data-chatrail-message][data-chatrail-role="assistant"] [data-chatrail-content]').allInnerTexts(),
    users: (page) => page.locator('[data-chatrail-message][data-chatrail-role="user"] [data-chatrail-content]').allInnerTexts(),
    parts: async () => null,
    expectedParts: null,
  }

  beforeAll(async () => {
    browser = await launchChromium(chromiumPath as string)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all(servers.map((server) => server.close()))
    await store.close()
  })

  const reply = (page: Page, text: string) => page.locator('[data-chatrail-role="assistant"]', { hasText: text }).first()
  async function send(page: Page, text: string): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill(text)
    await page.keyboard.press('Enter')
  }
  async function newPage(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    page.on('pageerror', (error) => pageErrors.push(error.message))
    return page
  }

  describe.each([useChatPage, servePage])('%s', (kind) => {
    let files: PageFiles
    let a: RunningServer
    let b: RunningServer
    beforeAll(async () => {
      files = await kind.files()
      ;({ a, b } = await instances(files))
    }, 60_000)

    /** Checks the finished answer on screen and in the store. */
    async function expectCompleted(page: Page, conversationId: string, question: string, callsBefore: number): Promise<void> {
      await reply(page, FULL).waitFor({ timeout: 20_000 })
      await kind.settled(page)
      expect(await kind.replies(page)).toEqual([FULL])
      expect(await kind.users(page)).toEqual([question])
      expect(await kind.parts(page)).toBe(kind.expectedParts)
      const stored = await store.load(conversationId)
      expect(stored?.messages.map((message) => [message.role, message.content])).toEqual([['user', question], ['assistant', FULL]])
      expect(agent.calls()).toBe(callsBefore + 1)
      expect(agent.aborts()).toBe(0)
    }

    it('a reload mid-answer, pointed at instance B: the page resumes from B and the answer completes, every part once', async () => {
      const page = await newPage()
      await page.goto(`${a.url}/`)
      await kind.ready(page)
      const conversationId = new URL(page.url()).searchParams.get('c') ?? ''
      const calls = agent.calls()
      const resumed = resumedOnB.length
      const open = agent.hold()
      await send(page, 'how does resuming work?')
      await reply(page, HELD).waitFor()
      // the reload: the same conversation, the page now served by (and talking to) instance B
      await page.goto(`${b.url}/?c=${conversationId}`)
      await reply(page, HELD).waitFor()
      expect(await kind.users(page)).toEqual(['how does resuming work?'])
      expect(resumedOnB.length).toBeGreaterThan(resumed)
      open() // the rest streams live, from A's turn, through the store, to B's follower
      await expectCompleted(page, conversationId, 'how does resuming work?', calls)
      expect(pageErrors).toEqual([])
      await page.close()
    }, 60_000)

    it('the connection cut mid-answer (its sockets reset): the page resumes, here from B, and the answer completes, every part once', async () => {
      let upstream = portOf(a)
      const proxy = await tcpProxy(() => upstream)
      const page = await newPage()
      try {
        await page.goto(`${proxy.url}/`)
        await kind.ready(page)
        const conversationId = new URL(page.url()).searchParams.get('c') ?? ''
        const calls = agent.calls()
        const resumed = resumedOnB.length
        const open = agent.hold()
        await send(page, 'and when the line drops?')
        await reply(page, HELD).waitFor()
        upstream = portOf(b) // from now on the proxy forwards to B
        proxy.cut()
        await expect.poll(() => resumedOnB.length, { timeout: 15_000 }).toBeGreaterThan(resumed)
        open()
        await expectCompleted(page, conversationId, 'and when the line drops?', calls)
        expect(pageErrors).toEqual([])
      } finally {
        await page.close()
        await proxy.close()
      }
    }, 60_000)
  })
})
