import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { findChromium, launchChromium } from '../react/chromium.js'
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.js'
import { AGENT_BIN_DIR } from '../support/agent-clis.js'
import { claudeEnv, makeClaudeHome, type ClaudeHome } from '../support/claude-cli.js'
import { cliBundle, scriptBundle } from '../support/cli-bundle.js'
import { startNodeServer, type ServeProcess } from './serve-process.js'

// `chatrail serve --agent claude-code`: the real CLI serving a definition without an agent of its
// own, the real Claude Code CLI as its agent (in a throwaway HOME, against the scripted Anthropic
// server). The agent's permission prompt (Bash in Claude Code's default mode) waits as a
// confirmation record of the conversation whose turn asks: the server's endpoints list it under
// that conversation only, and approving it (twice at once) lets the command run once; rejecting it
// sends the deny with the reason, and the command never runs.
const fixture = await scriptBundle('test/serve/fixtures/agent-chat.ts')
// the page case runs in Debian's chromium (skipped, with this reason, where it is not on PATH)
const chromiumPath = findChromium()

interface Listed {
  readonly token: string
  readonly status: string
  readonly action: { readonly name: string; readonly input: Record<string, unknown> }
  readonly outcome?: unknown
}

describe('chatrail serve --agent claude-code: permission requests as records of their conversation', () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  let started: { server: ServeProcess; model: AnthropicServer; home: ClaudeHome } | undefined
  async function start(): Promise<{ server: ServeProcess; model: AnthropicServer; home: ClaudeHome }> {
    if (started) return started
    const model = await startAnthropicServer({
      turns: [
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch approved.txt', description: 'Touch a file' } }] },
        { content: [{ type: 'text', text: 'Touched.' }] },
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch refused.txt', description: 'Touch another file' } }] },
        { content: [{ type: 'text', text: 'Not done.' }] },
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch from-page.txt', description: 'Touch a file from the page' } }] },
        { content: [{ type: 'text', text: 'Touched from the page.' }] },
      ],
    })
    cleanups.push(model.close)
    const home = makeClaudeHome('chatrail-serve-permissions-')
    cleanups.push(() => home.cleanup())
    const env = { ...claudeEnv(home.home, model.url), PATH: `${AGENT_BIN_DIR}:${process.env.PATH ?? '/usr/bin:/bin'}` }
    // in the agent's working directory, as an operator starts it in their project
    const server = await startNodeServer([await cliBundle(), 'serve', fixture, '--port', '0', '--store', 'memory', '--agent', 'claude-code'], { cwd: home.cwd, env, timeoutMs: 60_000 })
    cleanups.push(async () => void (await server.stop('SIGTERM')))
    started = { server, model, home }
    return started
  }

  const post = (server: ServeProcess, body: unknown): Promise<Response> => fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const list = async (server: ServeProcess, id: string): Promise<Listed[]> => ((await (await post(server, { id, action: 'list-actions' })).json()) as { confirmations: Listed[] }).confirmations
  const waitForRecord = async (server: ServeProcess, id: string): Promise<Listed> => {
    for (let tries = 0; tries < 600; tries++) {
      const records = (await list(server, id)).filter((record) => record.status === 'pending')
      if (records[0]) return records[0]
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`no pending record in ${id}`)
  }
  /** The answer's text: its `text-delta` parts joined. */
  const textOf = (stream: string): string =>
    stream.split('\n').flatMap((line) => {
      const part = line.startsWith('data: {') ? (JSON.parse(line.slice(6)) as { type: string; delta?: string }) : undefined
      return part?.type === 'text-delta' ? [part.delta ?? ''] : []
    }).join('')
  const turn = (server: ServeProcess, id: string, text: string): Promise<string> =>
    post(server, { id, trigger: 'submit-message', messages: [{ id: `${id}-u1`, role: 'user', parts: [{ type: 'text', text }] }] }).then((response) => response.text())

  it('a prompt waits as a pending record of its conversation; two approvals at once allow it once and the command runs', async () => {
    const { server, home } = await start()
    expect(server.stdout()).toContain("approvals: the agent's permission requests")
    expect(await (await fetch(`${server.url}/chatrail-serve.json`)).json()).toMatchObject({ confirmations: true })

    const answer = turn(server, 'c1', 'Touch a file')
    const record = await waitForRecord(server, 'c1')
    expect(record.action).toMatchObject({ name: 'Bash', input: expect.objectContaining({ command: 'touch approved.txt' }) })
    // the record is that conversation's alone
    expect(await list(server, 'c2')).toEqual([])
    expect(existsSync(join(home.cwd, 'approved.txt'))).toBe(false)

    const answers = await Promise.all([post(server, { id: 'c1', action: 'approve-action', token: record.token }), post(server, { id: 'c1', action: 'approve-action', token: record.token })])
    // decided by the server, carried out where the agent waits (this process's gate): 202, or 200 for the one that found it done
    for (const decided of answers) expect([200, 202]).toContain(decided.status)
    expect(answers.map((decided) => decided.status)).toContain(202)
    expect(textOf(await answer)).toBe('Touched.')
    expect(existsSync(join(home.cwd, 'approved.txt'))).toBe(true)
    const [done] = await list(server, 'c1')
    expect(done).toMatchObject({ status: 'approved', outcome: { status: 'complete', result: 'allowed' } })
  }, 120_000)

  it('rejecting the record sends the deny with its reason; the command never runs', async () => {
    const { server, home, model } = await start()
    const answer = turn(server, 'c2', 'Touch another file')
    const record = await waitForRecord(server, 'c2')
    expect(record.action.input).toMatchObject({ command: 'touch refused.txt' })
    const rejected = await post(server, { id: 'c2', action: 'reject-action', token: record.token, reason: 'not in this repository' })
    expect(((await rejected.json()) as { confirmation: Listed }).confirmation.status).toBe('rejected')
    expect(textOf(await answer)).toBe('Not done.')
    expect(existsSync(join(home.cwd, 'refused.txt'))).toBe(false)
    // the model read the deny with the reason as the tool's result
    expect(JSON.stringify(model.requests.filter((request) => !request.side).at(-1)?.body.messages)).toContain('not in this repository')
  }, 120_000)

  it.skipIf(chromiumPath === undefined)('the page shows the waiting prompt as an approval card mid-turn; Approve lets the command run and the answer finish', async () => {
    const { server, home } = await start()
    const browser: Browser = await launchChromium(chromiumPath as string)
    cleanups.push(() => browser.close())
    const tab = await browser.newPage()
    await tab.goto(`${server.url}/?c=c3`)
    await tab.getByRole('textbox', { name: 'Message' }).fill('Touch a file from the page')
    await tab.keyboard.press('Enter')
    // the turn is still running (the agent waits): the record is a card of <PendingApprovals>
    const card = tab.locator('section[data-chatrail-approval][data-chatrail-approval-state="pending"]')
    await card.waitFor({ timeout: 60_000 })
    expect(await card.locator('[data-chatrail-approval-name]').innerText()).toBe('Bash')
    expect(existsSync(join(home.cwd, 'from-page.txt'))).toBe(false)
    await card.locator('[data-chatrail-approve]').click()
    await tab.getByText('Touched from the page.').first().waitFor({ timeout: 60_000 })
    expect(existsSync(join(home.cwd, 'from-page.txt'))).toBe(true)
  }, 150_000)
})
