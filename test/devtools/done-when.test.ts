import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runExportCommand } from '../../src/cli/export.js'
import { runTestCommand } from '../../src/cli/test-command.js'
import type { ConversationDetail, ConversationListPage, MessageExplanation } from '../../src/devtools/index.js'
import { pgliteDataDirFromTemplate } from '../support/pglite-template.js'
import { repoRoot, startServeProcess, type ServeProcess } from '../serve/serve-process.js'

// Issue 33's "Done when", as a developer does it: `chatrail serve examples/lost-card/definition.ts
// --store pglite:<dir>` from the checkout, a conversation over HTTP, the devtools at /devtools
// (page and API: every turn's kind, route and states, an explanation), the conversation exported
// from the devtools into the directory serve ran in, and `chatrail test` on that file; then, the
// server stopped, `chatrail export <id> --store pglite:<dir>` on the command line, tested the same.

const DEFINITION = 'examples/lost-card/definition.ts'
const dir = mkdtempSync(join(tmpdir(), 'chatrail-done-when-'))
// where a developer saves the download: the directory serve ran in (the file names the module from there)
const exported = join(repoRoot, `.chatrail-done-when-${process.pid}.conv.yaml`)
let server: ServeProcess | undefined

afterAll(async () => {
  await server?.stop()
  rmSync(exported, { force: true })
  rmSync(dir, { recursive: true, force: true })
})

let sent = 0
async function say(url: string, text: string, uiEvent?: string): Promise<string> {
  sent += 1
  const message = { id: `u${sent}`, role: 'user', parts: [{ type: 'text', text }], ...(uiEvent === undefined ? {} : { metadata: { chatrail: { event: uiEvent } } }) }
  const response = await fetch(`${url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'lost-my-card', trigger: 'submit-message', messages: [message] }) })
  expect(response.status).toBe(200)
  return response.text()
}

function io(): { out: string[]; io: { stdout: (text: string) => void; stderr: (text: string) => void; cwd: string } } {
  const out: string[] = []
  return { out, io: { stdout: (text) => out.push(text), stderr: (text) => out.push(text), cwd: repoRoot } }
}

describe('issue 33, done when: serve lost-card on PGlite, talk, read it in /devtools, export it as a passing test', () => {
  it('every turn reads as what happened, and the exported conversation passes chatrail test (from the page and from the CLI)', async () => {
    const dataDir = await pgliteDataDirFromTemplate(join(dir, 'store'))
    server = await startServeProcess([DEFINITION, '--port', '0', '--store', `pglite:${dataDir}`])
    const { url } = server
    for (const [text, uiEvent] of [['hi'], ['I lost my card'], ['/start'], ['12'], ['4821'], ['sw1a 1aa'], ['yes'], ['Express', 'express'], ['order'], ['Express', 'express'], ['/start']] as const) await say(url, text, uiEvent)

    // the page is served (on 127.0.0.1 without a token), and its API reads the conversation
    const page = await fetch(`${url}/devtools/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<div id="root"|<script/)
    const list = (await (await fetch(`${url}/devtools/api/conversations`)).json()) as ConversationListPage
    expect(list.conversations.map((c) => [c.id, c.state, c.lastKind, c.turnCount])).toEqual([['lost-my-card', 'greeting', 'deterministic', 11]])
    const detail = (await (await fetch(`${url}/devtools/api/conversations/lost-my-card`)).json()) as ConversationDetail
    expect(detail.turns.map((turn) => [turn.kind, turn.routeId, turn.fromState, turn.toState, turn.reason ?? null])).toEqual([
      ['deterministic', 'greet', 'greeting', 'greeting', null],
      // no route matched and lost-card has no agent: its fallback answered, and no model was called
      ['fallback', null, 'greeting', 'greeting', 'missing-adapter'],
      ['deterministic', 'start', 'greeting', 'identify', null],
      ['refused', null, 'identify', 'identify', expect.any(String)],
      ['form', null, 'identify', 'identify', 'slot-filled'],
      ['form', null, 'identify', 'confirmAddress', 'form-complete'],
      ['deterministic', 'address-yes', 'confirmAddress', 'chooseDelivery', null],
      ['deterministic', 'express', 'chooseDelivery', 'lookup', null],
      ['deterministic', 'order', 'lookup', 'done', null],
      ['unavailable', null, 'done', 'done', expect.any(String)],
      ['deterministic', 'start-over', 'done', 'greeting', expect.any(String)],
    ])
    expect(detail.turns.at(-1)?.restart).toBe(true)
    expect(detail.turns.flatMap((turn) => turn.adapterCalls)).toEqual([])
    // every answer carries where its time went: route resolution and the store before its write
    for (const turn of detail.turns) expect(Object.keys(turn.timings)).toEqual(expect.arrayContaining(['turnMs', 'routeMs', 'storeBeforeWriteMs']))
    // "why not the other routes" for the refused digits
    const refused = detail.turns[3]
    const explanation = (await (await fetch(`${url}/devtools/api/conversations/lost-my-card/messages/${refused?.userMessageId ?? ''}/explain`)).json()) as MessageExplanation
    expect(explanation.state).toBe('identify')
    expect(explanation.text).toContain('not a valid answer for slot "digits"')

    // Export (the page's button is this request), saved where serve ran, then `chatrail test`
    const download = await fetch(`${url}/devtools/api/conversations/lost-my-card/export`)
    expect(download.status).toBe(200)
    writeFileSync(exported, await download.text())
    expect(readFileSync(exported, 'utf8')).toContain('definition: { module: "./examples/lost-card/definition.ts" }')
    const tested = io()
    expect(await runTestCommand([exported], tested.io), tested.out.join('\n')).toBe(0)

    // the CLI export, once the server (the PGlite directory's one process) has stopped
    expect(await server.stop()).toBe(0)
    server = undefined
    const cli = io()
    expect(await runExportCommand(['lost-my-card', '--definition', DEFINITION, '--store', `pglite:${dataDir}`, '--out', exported], cli.io), cli.out.join('\n')).toBe(0)
    const again = io()
    expect(await runTestCommand([exported], again.io), again.out.join('\n')).toBe(0)
  }, 180_000)
})
