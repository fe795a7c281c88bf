import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { ConversationExport } from '../../src/devtools/index.js'
import { createDevtoolsHandler, maskText } from '../../src/devtools/index.js'
import { defineChat } from '../../src/index.js'
import { apiChat } from './api/api-chat.js'
import { lostCard } from '../../examples/lost-card/definition.js'
import type { ChatDefinition } from '../../src/conversation/definition.js'
import type { JsonObject } from '../../src/conversation/json.js'
import { memoryStore } from '../../src/store/index.js'
import { runConversationFile } from '../../src/testing/conversations/run-file.js'
import { allKinds, apiHarness } from './api/api-harness.js'

// Export as a test: a stored conversation becomes a .conv.yaml file that `chatrail test`'s runner
// passes on the definition it was exported with, agentic answers as scripted replies; redacted,
// no user text survives unless no placeholder decides the same way (and then it is listed).

const CHAT_MODULE = fileURLToPath(new URL('./api/api-chat.ts', import.meta.url))
const LOST_CARD_MODULE = fileURLToPath(new URL('../../examples/lost-card/definition.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'chatrail-devtools-export-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function runExported(yaml: string, name: string): Promise<Awaited<ReturnType<typeof runConversationFile>>> {
  const file = join(dir, name)
  writeFileSync(file, yaml)
  return runConversationFile(file)
}

const failures = (result: Awaited<ReturnType<typeof runConversationFile>>): string[] => [
  ...(result.issues ?? []).map((issue) => issue.message),
  ...result.conversations.flatMap((conversation) => conversation.failures.map((failure) => `turn ${failure.turn ?? '-'}: ${failure.message}`)),
]

describe('GET /conversations/:id/export', () => {
  it('exports a conversation with every kind of turn as a file chatrail test passes', async () => {
    const h = apiHarness(memoryStore(), { exportModule: { module: CHAT_MODULE, export: 'apiChat' } })
    await allKinds(h, 'c-export')
    await h.turn('c-export', 'please break') // the agent fails after a few words, the fallback answers: stored as agentic, with both
    const response = await h.get('/conversations/c-export/export')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/yaml; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="c-export.conv.yaml"')
    const yaml = await response.text()
    expect(yaml).toContain(`definition: { module: ${JSON.stringify(CHAT_MODULE)}, export: "apiChat" }`)
    expect(yaml).toContain('  - user: "4821"\n    expect: { route: null, kind: deterministic, outcome: ok, state: "identify", reply: "And your postcode?" }')
    expect(yaml).toContain('  - event: "express"\n    label: "Express"')
    // the agent's answers are the file's scripted replies, in the order the run asks for them
    expect(yaml).toContain('agent:\n  - "I am the agent: I can replace a lost card. Type /start."\n  - "Let me seeSorry, I did not get that. Type /help."\nturns:')
    const result = await runExported(yaml, 'c-export.conv.yaml')
    expect(failures(result)).toEqual([])
    expect(result.passed).toBe(true)
    expect(result.conversations[0]?.turns).toHaveLength(14)
  })

  it('redacted: every user text is a placeholder that decides the same way, and the file still passes', async () => {
    const h = apiHarness(memoryStore(), { exportModule: { module: CHAT_MODULE, export: 'apiChat' } })
    await allKinds(h, 'c-redact')
    const response = await h.get('/conversations/c-redact/export?redact=1&format=json')
    const exported = (await response.json()) as ConversationExport
    expect(exported.redacted).toBe(true)
    // "crash" and "order" are matched by functions: no placeholder is decided the same way, so they are kept and listed
    expect(exported.keptTurns).toEqual([3, 12])
    const { yaml } = exported
    for (const secret of ['4821', 'sw1a', 'SW1A', 'what can you do', 'I am the agent']) expect(yaml).not.toContain(secret)
    expect(yaml).toContain('  - user: "0000"') // the form's 4 digits, masked
    expect(yaml).toContain('  - user: "xx0x 0xx"') // the postcode, masked: it still validates
    expect(yaml).toContain('  - user: "[redacted 2]"') // what the agent got
    expect(yaml).toContain('  - user: "hi"') // the route's own words
    expect(yaml).toContain('# Kept as typed (no placeholder decides the same way): turns 3, 12.')
    const result = await runExported(yaml, 'c-redact.conv.yaml')
    expect(failures(result)).toEqual([])
    expect(result.conversations[0]?.turns.map((turn) => turn.traces.at(-1)?.routeId ?? null)).toEqual(['greet', null, 'crash', 'typo-help', 'old-menu', 'start', null, null, null, 'address-yes', 'express', 'order', null])
    const header = await h.get('/conversations/c-redact/export?redact=1')
    expect(header.headers.get('x-chatrail-redaction-kept')).toBe('3,12')
  })

  it('a definition without an agent: its fallback answers in the file as it did when stored, no agent replies', async () => {
    const h = apiHarness(memoryStore(), { definition: lostCard as unknown as ChatDefinition<JsonObject>, exportModule: { module: LOST_CARD_MODULE, export: 'lostCard' } })
    for (const text of ['hi', 'what is this?', '/start', '4821']) await h.turn('c-plain', text)
    const yaml = await (await h.get('/conversations/c-plain/export')).text()
    expect(yaml).not.toContain('agent:')
    expect(yaml).toContain('  - user: "what is this?"\n    expect: { route: null, kind: fallback, outcome: ok, state: "greeting", reply: "Sorry, I did not get that. Type /help." }')
    const result = await runExported(yaml, 'c-plain.conv.yaml')
    expect(failures(result)).toEqual([])
  })

  it('says which turns the definition now decides differently from the stored history', async () => {
    const h = apiHarness(memoryStore(), { exportModule: { module: CHAT_MODULE, export: 'apiChat' } })
    await h.turn('c-same', '/start')
    const exported = (await (await h.get('/conversations/c-same/export?format=json')).json()) as ConversationExport
    expect(exported.changedTurns).toEqual([])
    expect((await h.get('/conversations/c-same/export?redact=maybe')).status).toBe(400)
    // revision 2 no longer greets: the stored "hi" was the greet route's, today the agent takes it
    await h.turn('c-changed', 'hi')
    await h.turn('c-changed', '/start')
    const revised = defineChat({ ...apiChat, revision: 2, conversation: { ...apiChat.conversation, routes: apiChat.conversation.routes.filter((route) => route.id !== 'greet') } }) as unknown as ChatDefinition<JsonObject>
    const devtools = createDevtoolsHandler({ store: h.store, definitions: [revised], authenticate: 'none', exportModule: { module: CHAT_MODULE } })
    const changed = (await (await devtools(new Request('http://localhost/devtools/api/conversations/c-changed/export?format=json'))).json()) as ConversationExport
    expect(changed.changedTurns).toEqual([1])
    expect(changed.yaml).toContain('# Decided differently from the stored history: turn 1.')
    expect(changed.yaml).toContain('  - user: "hi"\n    expect: { route: null, kind: agentic')
  })

  it('masks letters and digits to their shape, in any script', () => {
    expect(maskText('Card 4821, SW1A 1AA!')).toBe('Xxxx 0000, XX0X 0XX!')
    expect(maskText('Ünïcode ٣')).toBe('Xxxxxxx 0')
  })
})
