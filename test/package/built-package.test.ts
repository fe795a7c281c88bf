import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

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
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }

async function node(file: string, source: string): Promise<string> {
  writeFileSync(join(appDir, file), source)
  const { stdout } = await run(process.execPath, [file], { cwd: appDir, timeout: 60_000 })
  return stdout.trim()
}

beforeAll(async () => {
  rmSync(appDir, { recursive: true, force: true })
  mkdirSync(packageDir, { recursive: true })
  // The app's own package.json: without it, Node would resolve `chatrail` as a self-reference of the checkout.
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'chatrail-package-check', private: true }))
  cpSync(join(root, 'package.json'), join(packageDir, 'package.json'))
  cpSync(join(root, 'bin'), join(packageDir, 'bin'), { recursive: true })
  // Declarations are checked by `tsc` in `npm test`; the runtime build is what this file tests.
  await run(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--no-dts', '--no-sourcemap', '--out-dir', join(packageDir, 'dist'), '--silent'], { cwd: root, timeout: 180_000 })
}, 200_000)

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
  // explanation. vitest (the conformance suites and the matchers) refuses require(); Ink 6 has a
  // top-level await, which require() cannot load.
  const esmOnly = new Map<string, RegExp>([
    ['chatrail/testing', /Vitest cannot be imported in a CommonJS module/],
    ['chatrail/testing/vitest', /Vitest cannot be imported in a CommonJS module/],
    ['chatrail/ink', /top-level await|ERR_REQUIRE_ESM|require\(\) of ES Module/],
  ])

  it('every subpath in the exports map loads from ESM and from CJS with the same export names', async () => {
    const subpaths = Object.keys(manifest.exports).filter((key) => !key.endsWith('.css') && !key.endsWith('.json')).map((key) => key.replace(/^\./, 'chatrail'))
    expect(subpaths).toEqual(expect.arrayContaining(['chatrail', 'chatrail/controller', 'chatrail/react', 'chatrail/ink', 'chatrail/testing', 'chatrail/claude-code', 'chatrail/codex', 'chatrail/monitor']))
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

  it('the bin runs the built CLI', async () => {
    const { stdout } = await run(process.execPath, [join(packageDir, 'bin', 'chatrail.mjs'), '--help'], { cwd: appDir, timeout: 60_000 })
    expect(stdout).toMatch(/demo/)
    expect(stdout).toMatch(/inspect/)
  })
})
