import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtPackage } from '../support/built-package.js'
import { pgliteDataDirFromTemplate, removeDataDir } from '../support/pglite-template.js'

/**
 * The package as it is published: tsup's ESM and CJS output, resolved through package.json's
 * `exports` by plain Node (no tsx, no vitest transform). The build goes into
 * test-output/package/node_modules/chatrail, so `zod`, `react` and `ink` resolve from the
 * checkout's node_modules the way they would from an app's.
 */

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const appDir = join(root, 'test-output', 'package')
const packageDir = join(appDir, 'node_modules', 'chatrail')
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; dependencies: Record<string, string> }

async function node(file: string, source: string, cwd = appDir): Promise<string> {
  writeFileSync(join(cwd, file), source)
  const { stdout } = await run(process.execPath, [file], { cwd, timeout: 60_000 })
  return stdout.trim()
}

beforeAll(async () => {
  rmSync(appDir, { recursive: true, force: true })
  mkdirSync(packageDir, { recursive: true })
  // The app's own package.json: without it, Node would resolve `chatrail` as a self-reference of the checkout.
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'chatrail-package-check', private: true }))
  // The one build the package tests share (test/support/built-package.ts; the docs snippet check
  // typechecks against its declarations), copied: the app without vitest below copies it again.
  cpSync(await builtPackage(), packageDir, { recursive: true })
}, 400_000)

// A complete deterministic turn, written once and run from both module systems.
const turn = (load: string): string => `
${load}
const definition = defineChat({
  id: 'pkg',
  chat: {},
  conversation: {
    initial: 'idle',
    states: { idle: { on: { START: 'running' } }, running: {} },
    routes: [commandRoute({ id: 'start', command: '/start', event: 'START', response: 'Started.' })],
    fallback: { response: 'Try /start.' },
  },
})
const session = createChatSession(definition)
const controller = createChatController(session.chat)
Promise.resolve(controller.send('/start')).then(() => {
  const answer = controller.getState().messages.at(-1)
  console.log(JSON.stringify({ state: session.getSnapshot().state, answer: answer.content, status: controller.getState().status }))
})
`

describe('the built package, through its exports map', () => {
  it('runs a deterministic turn from ESM', async () => {
    const out = await node('turn.mjs', turn(`import { commandRoute, createChatSession, defineChat } from 'chatrail'\nimport { createChatController } from 'chatrail/controller'`))
    expect(JSON.parse(out)).toEqual({ state: 'running', answer: 'Started.', status: 'idle' })
  })

  it('runs the same turn from CommonJS', async () => {
    const out = await node('turn.cjs', turn(`const { commandRoute, createChatSession, defineChat } = require('chatrail')\nconst { createChatController } = require('chatrail/controller')`))
    expect(JSON.parse(out)).toEqual({ state: 'running', answer: 'Started.', status: 'idle' })
  })

  it('an error thrown by the CJS copy is recognised by the ESM copy, and the reverse', async () => {
    const out = await node('errors.mjs', `
import { createRequire } from 'node:module'
import * as esm from 'chatrail'
const cjs = createRequire(import.meta.url)('chatrail')
const thrown = (lib) => { try { lib.defineChat({ id: 'bad id', chat: {}, conversation: { initial: 'x', states: {}, routes: [] } }) } catch (error) { return error } }
const fromCjs = thrown(cjs)
const fromEsm = thrown(esm)
console.log(JSON.stringify({
  distinctCopies: esm.ChatrailError !== cjs.ChatrailError,
  esmKnowsCjs: esm.ChatrailError.isInstance(fromCjs),
  cjsKnowsEsm: cjs.ChatrailError.isInstance(fromEsm),
  instanceofAcross: fromCjs instanceof esm.ChatrailError,
  codes: fromCjs.issues.map((issue) => issue.code),
}))`)
    expect(JSON.parse(out)).toEqual({ distinctCopies: true, esmKnowsCjs: true, cjsKnowsEsm: true, instanceofAcross: false, codes: expect.arrayContaining(['invalid_identifier', 'unknown_initial']) })
  })

  it('chatrail/controller shares the core\'s ChatrailError within each module system', async () => {
    const out = await node('controller-errors.mjs', `
import { createRequire } from 'node:module'
import { ChatrailError } from 'chatrail'
import { ToolError, createChatController } from 'chatrail/controller'
const require = createRequire(import.meta.url)
const cjsCore = require('chatrail')
const cjsController = require('chatrail/controller')
let missing
try { createChatController({}) } catch (error) { missing = error }
console.log(JSON.stringify({
  esm: new ToolError({ code: 'X', message: 'x' }) instanceof ChatrailError,
  cjs: new cjsController.ToolError({ code: 'X', message: 'x' }) instanceof cjsCore.ChatrailError,
  missingAdapter: ChatrailError.isInstance(missing) ? missing.code : 'not a ChatrailError',
}))`)
    expect(JSON.parse(out)).toEqual({ esm: true, cjs: true, missingAdapter: 'AK_ADAPTER_MISSING' })
  })

  // Entries over an ESM-only peer load from ESM only; from CJS they fail with that peer's own
  // explanation. vitest (chatrail/testing/vitest: the conformance suites and the matchers) refuses
  // require(); Ink 6 has a top-level await, which require() cannot load. chatrail/testing is not
  // among them: it never imports vitest.
  const esmOnly = new Map<string, RegExp>([
    ['chatrail/testing/vitest', /Vitest cannot be imported in a CommonJS module/],
    ['chatrail/ink', /top-level await|ERR_REQUIRE_ESM|require\(\) of ES Module/],
  ])

  it('every subpath in the exports map loads from ESM and from CJS with the same export names', async () => {
    const subpaths = Object.keys(manifest.exports).filter((key) => !key.endsWith('.css') && !key.endsWith('.json')).map((key) => key.replace(/^\./, 'chatrail'))
    expect(subpaths).toEqual(expect.arrayContaining(['chatrail', 'chatrail/tools', 'chatrail/controller', 'chatrail/store', 'chatrail/server', 'chatrail/react', 'chatrail/ink', 'chatrail/testing', 'chatrail/claude-code', 'chatrail/codex', 'chatrail/opencode', 'chatrail/monitor']))
    const out = await node('subpaths.mjs', `
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const result = {}
for (const name of ${JSON.stringify(subpaths)}) {
  const esm = Object.keys(await import(name)).filter((key) => key !== 'default').sort()
  let cjs
  try {
    cjs = Object.keys(require(name)).filter((key) => key !== '__esModule').sort()
  } catch (error) {
    cjs = String(error.message).split('\\n')[0]
  }
  result[name] = { esm: esm.length, same: JSON.stringify(esm) === JSON.stringify(cjs), cjsError: typeof cjs === 'string' ? cjs : undefined }
}
console.log(JSON.stringify(result))`)
    const result = JSON.parse(out) as Record<string, { esm: number; same: boolean; cjsError?: string }>
    for (const name of subpaths) {
      expect(result[name]?.esm, name).toBeGreaterThan(0)
      const esmOnlyReason = esmOnly.get(name)
      if (esmOnlyReason) expect(result[name]?.cjsError, name).toMatch(esmOnlyReason)
      else expect(result[name]?.same, `${name}: ESM and CJS export the same names`).toBe(true)
    }
  })

  it('chatrail/tools draws and lints synchronously from ESM and CommonJS; chatrail keeps only toMermaid', async () => {
    const tools = (load: string): string => `
${load}
const definition = defineChat({ id: 'pkg', chat: {}, conversation: { initial: 'a', states: { a: { on: { go: 'b' } }, b: { final: true }, lost: {} }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })], fallback: { response: 'no' } } })
const diagram = toMermaid(definition)
console.log(JSON.stringify({ mermaid: typeof diagram === 'string' && diagram.startsWith('stateDiagram-v2'), dot: toDot(definition).startsWith('digraph'), lint: lintDefinition(definition).map((warning) => warning.code), inCore: ['lintDefinition', 'toMermaid', 'toDot'].filter((name) => name in core), sameMermaid: core.toMermaid(definition) === diagram }))`
    const expected = { mermaid: true, dot: true, lint: expect.arrayContaining(['unreachable_state']), inCore: ['toMermaid'], sameMermaid: true }
    expect(JSON.parse(await node('tools.mjs', tools(`import * as core from 'chatrail'\nimport { commandRoute, defineChat } from 'chatrail'\nimport { lintDefinition, toDot, toMermaid } from 'chatrail/tools'`)))).toEqual(expected)
    expect(JSON.parse(await node('tools.cjs', tools(`const core = require('chatrail')\nconst { commandRoute, defineChat } = core\nconst { lintDefinition, toDot, toMermaid } = require('chatrail/tools')`)))).toEqual(expected)
  })

  // chatrail/store: the embedded store end to end from both module systems (PGlite's CJS build is
  // reached through the store's lazy import()).
  // On a copy of the migrated template (test/support/pglite-template.ts): what is checked is that
  // the package's pgliteStore loads and runs from each module system; an in-memory database ran
  // initdb in each of the two processes (~2.5 s each, 22 s on the loaded run).
  const storeRoundTrip = (load: string, dataDir: string): string => `
${load}
const store = pgliteStore({ dataDir: ${JSON.stringify(dataDir)} })
const message = { id: 'u1', role: 'user', content: 'hello', status: 'complete', createdAt: new Date(0) }
store.append('c1', { expectedVersion: 0, messages: [message], definition: { id: 'pkg', revision: 1 } })
  .then(() => store.load('c1'))
  .then(async (loaded) => {
    await store.close()
    // A signed record: the HMAC code is a lazily loaded chunk of the core.
    const definition = defineChat({ id: 'pkg', chat: {}, conversation: { initial: 'a', states: { a: { on: { go: 'a' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })], fallback: { response: 'no' } } })
    const session = createChatSession(definition, { recordKey: 'a-secret-of-at-least-16-bytes', lint: false })
    const chunks = []
    for await (const chunk of session.chat.adapter.createSource({ messages: [{ ...message, content: '/go' }] }).stream()) chunks.push(chunk)
    const sig = chunks.at(-1).metadata.chatrail.sig
    console.log(JSON.stringify({ version: loaded.version, content: loaded.messages[0].content, kind: store.kind, sig: /^[A-Za-z0-9_-]{43}$/.test(sig) }))
  })
`
  it('chatrail/store runs pgliteStore, and a session signs its records, from ESM and from CommonJS', async () => {
    const expected = { version: 1, content: 'hello', kind: 'pglite', sig: true }
    const [esmDir, cjsDir] = [await pgliteDataDirFromTemplate(), await pgliteDataDirFromTemplate()]
    try {
      expect(JSON.parse(await node('store.mjs', storeRoundTrip(`import { pgliteStore } from 'chatrail/store'\nimport { commandRoute, createChatSession, defineChat } from 'chatrail'`, esmDir)))).toEqual(expected)
      expect(JSON.parse(await node('store.cjs', storeRoundTrip(`const { pgliteStore } = require('chatrail/store')\nconst { commandRoute, createChatSession, defineChat } = require('chatrail')`, cjsDir)))).toEqual(expected)
    } finally {
      removeDataDir(esmDir, cjsDir)
    }
  }, 120_000)

  // chatrail/svelte ships `.svelte` sources (docs/svelte.md § Packaging): plain Node resolves the
  // subpath to its store, which runs a turn through the Svelte store contract; a bundler with the
  // `svelte` condition (esbuild-svelte here, as Vite's plugin does) compiles the components from dist/svelte/.
  it('chatrail/svelte: plain Node runs its store; a bundler with the `svelte` condition compiles its components', async () => {
    const store = (load: string): string => `
${load}
const definition = defineChat({ id: 'pkg', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { START: 'running' } }, running: {} }, routes: [commandRoute({ id: 'start', command: '/start', event: 'START', response: 'Started.' })], fallback: { response: 'Try /start.' } } })
const chat = createChatSession(definition)
const seen = []
const stop = chat.subscribe((snapshot) => seen.push(snapshot.badge.state))
Promise.resolve(chat.send('/start')).then(() => {
  stop()
  console.log(JSON.stringify({ states: [...new Set(seen)], last: chat.get().messages.at(-1).content }))
  chat.destroy()
})`
    const expected = { states: ['idle', 'running'], last: 'Started.' }
    expect(JSON.parse(await node('svelte-store.mjs', store(`import { commandRoute, defineChat } from 'chatrail'\nimport { createChatSession } from 'chatrail/svelte'`)))).toEqual(expected)
    expect(JSON.parse(await node('svelte-store.cjs', store(`const { commandRoute, defineChat } = require('chatrail')\nconst { createChatSession } = require('chatrail/svelte')`)))).toEqual(expected)
    writeFileSync(join(appDir, 'svelte-app.js'), `import { mount } from 'svelte'\nimport { ChatSession } from 'chatrail/svelte'\nimport { ActionApprovalCard } from 'chatrail/svelte/actions'\nexport { mount, ChatSession, ActionApprovalCard }\n`)
    const { build } = await import('esbuild')
    const { sveltePlugin } = await import('../svelte/svelte-plugin.js')
    const result = await build({
      entryPoints: [join(appDir, 'svelte-app.js')], bundle: true, format: 'esm', splitting: true, platform: 'browser', conditions: ['svelte', 'browser'],
      write: false, outdir: join(appDir, 'svelte-out'), metafile: true, logLevel: 'silent', plugins: [sveltePlugin()],
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.filter((file) => file.includes('node_modules/chatrail/dist/svelte/') && file.endsWith('.svelte')).length).toBeGreaterThan(20)
    expect(inputs.some((file) => file.includes('node_modules/svelte/src/internal/client/'))).toBe(true)
  }, 120_000)

  it('the bin runs the built CLI', async () => {
    const { stdout } = await run(process.execPath, [join(packageDir, 'bin', 'chatrail.mjs'), '--help'], { cwd: appDir, timeout: 60_000 })
    expect(stdout).toMatch(/demo/)
    expect(stdout).toMatch(/inspect/)
  })
})

// A scripted conversation through chatrail/testing, written once and run from both module systems.
const scripted = (load: string): string => `
${load}
const definition = defineChat({
  id: 'kit',
  chat: { adapter: testing.scriptedAdapter(['Agent here.']) },
  conversation: {
    initial: 'idle',
    states: { idle: { on: { START: 'running' } }, running: {} },
    routes: [commandRoute({ id: 'start', command: '/start', event: 'START', response: 'Started.' })],
  },
})
const moved = (() => { try { testing.runAdapterContract('x', () => testing.scriptedAdapter([])) } catch (error) { return { code: error.code, hint: error.hint } } })()
runConversation(definition, [{ user: '/start' }, { user: 'hello?' }]).then((run) => {
  console.log(JSON.stringify({ turns: run.turns.map((turn) => [turn.trace?.kind, turn.reply]), state: run.turns.at(-1)?.snapshot.state, moved }))
})
`

describe('chatrail/testing in an app without vitest', () => {
  // A copy of the built package in a folder outside the checkout whose node_modules holds
  // chatrail's own dependencies only, so nothing there can resolve vitest (or any dev dependency).
  let app = ''
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), 'chatrail-no-vitest-'))
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'chatrail-no-vitest', private: true }))
    cpSync(packageDir, join(app, 'node_modules', 'chatrail'), { recursive: true })
    for (const dependency of Object.keys(manifest.dependencies)) {
      const link = join(app, 'node_modules', dependency)
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(join(root, 'node_modules', dependency), link, 'dir')
    }
  })
  afterAll(() => {
    if (app !== '') rmSync(app, { recursive: true, force: true })
  })

  const expected = {
    turns: [['deterministic', 'Started.'], ['agentic', 'Agent here.']],
    state: 'running',
    moved: { code: 'MOVED_TO_TESTING_VITEST', hint: "import { runAdapterContract } from 'chatrail/testing/vitest'" },
  }

  it('cannot resolve vitest there (the check is real)', async () => {
    const out = await node('probe.cjs', `try { require.resolve('vitest'); console.log('found') } catch (error) { console.log(error.code) }`, app)
    expect(out).toBe('MODULE_NOT_FOUND')
  })

  it('loads chatrail/testing with require() and runs a scripted conversation', async () => {
    const out = await node('kit.cjs', scripted(`const { commandRoute, defineChat } = require('chatrail')\nconst testing = require('chatrail/testing')\nconst { runConversation } = testing`), app)
    expect(JSON.parse(out)).toEqual(expected)
  })

  it('loads chatrail/testing with import and runs the same conversation', async () => {
    const out = await node('kit.mjs', scripted(`import { commandRoute, defineChat } from 'chatrail'\nimport * as testing from 'chatrail/testing'\nconst { runConversation } = testing`), app)
    expect(JSON.parse(out)).toEqual(expected)
  })

  it('chatrail and chatrail/store load without pg and PGlite installed; their stores name the missing package', async () => {
    const out = await node('no-peers.mjs', `
import { createRequire } from 'node:module'
import { createChatSession } from 'chatrail'
import { memoryStore, pgliteStore, postgresStore } from 'chatrail/store'
const require = createRequire(import.meta.url)
const resolvable = (name) => { try { require.resolve(name); return true } catch { return false } }
const store = memoryStore()
await store.append('c1', { expectedVersion: 0, messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }], definition: { id: 'pkg', revision: 1 } })
const missing = async (make) => { try { await make().load('c1'); return 'loaded' } catch (error) { return [error.code, error.issues?.[0]?.code, error.hint] } }
console.log(JSON.stringify({
  pg: resolvable('pg'), pglite: resolvable('@electric-sql/pglite'), session: typeof createChatSession,
  memory: (await store.load('c1')).version,
  pgliteStore: await missing(() => pgliteStore()),
  postgresStore: await missing(() => postgresStore({ connectionString: 'postgres://127.0.0.1:1/x' })),
}))`, app)
    expect(JSON.parse(out)).toEqual({
      pg: false, pglite: false, session: 'function', memory: 1,
      pgliteStore: ['CONFIG_INVALID', 'missing_peer_dependency', 'npm install @electric-sql/pglite'],
      postgresStore: ['CONFIG_INVALID', 'missing_peer_dependency', 'npm install pg'],
    })
  })

  it('chatrail/testing/vitest, and only it, needs vitest', async () => {
    const out = await node('suites.mjs', `import('chatrail/testing/vitest').then(() => console.log('loaded'), (error) => console.log(error.code, String(error.message).split('\\n')[0]))`, app)
    expect(out).toMatch(/^ERR_MODULE_NOT_FOUND Cannot find package 'vitest'/)
  })

  it('chatrail/server serves a turn without @opentelemetry/api installed, from ESM and from CommonJS, reporting nothing', async () => {
    const expected = { otel: false, status: 200, answered: true, errors: [] }
    expect(JSON.parse(await node('server.mjs', serverTurn(`import { createRequire } from 'node:module'\nimport { commandRoute, defineChat } from 'chatrail'\nimport { createChatHandler } from 'chatrail/server'\nimport { memoryStore } from 'chatrail/store'\nconst require = createRequire(import.meta.url)`), app))).toEqual(expected)
    expect(JSON.parse(await node('server.cjs', serverTurn(`const { commandRoute, defineChat } = require('chatrail')\nconst { createChatHandler } = require('chatrail/server')\nconst { memoryStore } = require('chatrail/store')`), app))).toEqual(expected)
  })
})

// One turn through chatrail/server's handler in process, and whether @opentelemetry/api resolves there (issue 29).
const serverTurn = (load: string, setup = ''): string => `
${load}
${setup}
const resolvable = (name) => { try { require.resolve(name); return true } catch { return false } }
const definition = defineChat({
  id: 'pkg',
  chat: {},
  conversation: {
    initial: 'idle',
    states: { idle: { on: { START: 'running' } }, running: {} },
    routes: [commandRoute({ id: 'start', command: '/start', event: 'START', response: 'Started.' })],
    fallback: { response: 'Try /start.' },
  },
})
const errors = []
const handler = createChatHandler({ definition, store: memoryStore(), authenticate: 'none', onError: (error) => errors.push(String(error)) })
const body = JSON.stringify({ id: 'c1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '/start' }] }] })
;(async () => {
  const response = await handler(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
  const text = await response.text()
  await handler.close()
  console.log(JSON.stringify({ otel: resolvable('@opentelemetry/api'), status: response.status, answered: text.includes('Started.'), errors, ...(typeof spanNames === 'function' ? { spans: spanNames() } : {}) }))
})()
`

describe('chatrail/server telemetry from the build', () => {
  // The checkout's node_modules hold @opentelemetry/api and the SDK: the build's own import() of the
  // API (ESM, and CommonJS through require) finds it, and a globally registered SDK gets the spans.
  const sdk = (load: string): string => `${load}
const exporter = new InMemorySpanExporter()
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
const spanNames = () => exporter.getFinishedSpans().map((span) => span.name).sort()`
  const expected = { otel: true, status: 200, answered: true, errors: [], spans: ['POST /api/chat', 'chatrail.store.append', 'chatrail.store.claim', 'chatrail.store.load', 'chatrail.turn'] }

  it('traces a turn through the global API from ESM and from CommonJS', async () => {
    const esm = serverTurn(`import { createRequire } from 'node:module'\nimport { commandRoute, defineChat } from 'chatrail'\nimport { createChatHandler } from 'chatrail/server'\nimport { memoryStore } from 'chatrail/store'\nconst require = createRequire(import.meta.url)`, sdk(`import { trace } from '@opentelemetry/api'\nimport { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'`))
    expect(JSON.parse(await node('telemetry.mjs', esm))).toEqual(expected)
    const cjs = serverTurn(`const { commandRoute, defineChat } = require('chatrail')\nconst { createChatHandler } = require('chatrail/server')\nconst { memoryStore } = require('chatrail/store')`, sdk(`const { trace } = require('@opentelemetry/api')\nconst { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base')`))
    expect(JSON.parse(await node('telemetry.cjs', cjs))).toEqual(expected)
  })
})
