import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { findChromium, launchChromium } from '../react/chromium.js'
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.js'
import { scriptBundle } from '../support/cli-bundle.js'
import { startServeProcess, type ServeProcess } from './serve-process.js'

// `chatrail serve` serving confirmations: the real CLI in its own process, its definition's model
// (@ai-sdk/anthropic) against the scripted Anthropic server, a tool that requires confirmation.
// The model's call waits as a confirmation record; two clients approving it at once run it once.
// The page case runs in Debian's chromium (skipped, with this reason, where it is not on PATH).
const chromiumPath = findChromium()

const fixture = await scriptBundle('test/serve/fixtures/approval-tool.ts')

describe('chatrail serve: confirmations', () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  async function start(): Promise<{ server: ServeProcess; model: AnthropicServer; effects: () => string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-serve-approvals-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const effectsFile = join(dir, 'effects.txt')
    writeFileSync(effectsFile, '')
    // the second turn is the answer's continuation, once the call is decided
    const model = await startAnthropicServer({ turns: [{ content: [{ type: 'tool_use', id: 'toolu_pay', name: 'pay', input: { amount: 5 } }] }, { content: [{ type: 'text', text: 'Paid five.' }] }] })
    cleanups.push(model.close)
    const server = await startServeProcess([fixture, '--port', '0', '--store', 'memory'], { CHATRAIL_TEST_ANTHROPIC_URL: model.url, CHATRAIL_TEST_EFFECTS: effectsFile })
    cleanups.push(async () => void (await server.stop('SIGTERM')))
    return { server, model, effects: () => readFileSync(effectsFile, 'utf8').split('\n').filter((line) => line !== '') }
  }

  const post = (server: ServeProcess, body: unknown): Promise<Response> => fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  it('says it serves approvals, tells the page so, and a call approved by two clients at once runs once', async () => {
    const { server, effects } = await start()
    expect(server.stdout()).toContain('approvals: pay (each call waits for Approve on the page or the approve-action endpoint; it runs once)')
    // the page binds its approval cards to the records
    expect(await (await fetch(`${server.url}/chatrail-serve.json`)).json()).toMatchObject({ id: 'payments', confirmations: true })

    const turn = await post(server, { id: 'c1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay 5' }] }] })
    expect(turn.status).toBe(200)
    expect(await turn.text()).toContain('"type":"tool-approval-request"')
    const listed = (await (await post(server, { id: 'c1', action: 'list-actions' })).json()) as { confirmations: Array<{ token: string; status: string; action: unknown }> }
    expect(listed.confirmations).toEqual([expect.objectContaining({ status: 'pending', action: { name: 'pay', input: { amount: 5 } } })])
    const token = listed.confirmations[0]?.token as string
    expect(effects()).toEqual([])

    // two clients (two tabs, a double click) approve at once
    const answers = await Promise.all([post(server, { id: 'c1', action: 'approve-action', token }), post(server, { id: 'c1', action: 'approve-action', token })])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    for (const answer of answers) expect(((await answer.json()) as { confirmation: { status: string } }).confirmation.status).toBe('approved')
    expect(effects()).toHaveLength(1)
    expect(effects()[0]).toMatch(/^c1:/)
    // and a third approval later runs nothing either
    await post(server, { id: 'c1', action: 'approve-action', token })
    expect(effects()).toHaveLength(1)
    // the server continued the answer with the result: stored once, the model called once more
    for (let tries = 0; tries < 100 && !JSON.stringify(await (await fetch(`${server.url}/api/chat?id=c1`)).json()).includes('Paid five.'); tries++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(JSON.stringify(await (await fetch(`${server.url}/api/chat?id=c1`)).json())).toContain('Paid five.')
  }, 90_000)

  it.skipIf(chromiumPath === undefined)('the page shows the waiting call as an approval card; Approve in two tabs runs it once', async () => {
    const { server, effects } = await start()
    const browser: Browser = await launchChromium(chromiumPath as string)
    cleanups.push(() => browser.close())
    const tab = await browser.newPage()
    await tab.goto(`${server.url}/?c=c2`)
    await tab.getByRole('textbox', { name: 'Message' }).fill('pay 5')
    await tab.keyboard.press('Enter')
    // the paused call is a record no message shows: a card of <PendingApprovals>, bound to the record
    const card = tab.locator('section[data-chatrail-approval][data-chatrail-approval-state="pending"]')
    await card.waitFor({ timeout: 30_000 })
    expect(await card.locator('[data-chatrail-approval-name]').innerText()).toBe('pay')
    // a second tab on the same conversation shows the same record
    const other = await browser.newPage()
    await other.goto(`${server.url}/?c=c2`)
    const otherCard = other.locator('section[data-chatrail-approval][data-chatrail-approval-state="pending"]')
    await otherCard.waitFor({ timeout: 30_000 })
    await Promise.all([card.locator('[data-chatrail-approve]').click(), otherCard.locator('[data-chatrail-approve]').click()])
    await tab.locator('section[data-chatrail-approval][data-chatrail-approval-state="approved"]').waitFor({ timeout: 30_000 })
    await other.locator('section[data-chatrail-approval][data-chatrail-approval-state="approved"]').waitFor({ timeout: 30_000 })
    // the server continued the answer with the call's result: the page shows it without a new message
    await Promise.any([tab, other].map((page) => page.getByText('Paid five.').first().waitFor({ timeout: 30_000 })))
    expect(effects()).toHaveLength(1)
  }, 120_000)
})
