import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import type { defineChat as defineChatType } from '../../src/conversation/define-chat.js'
import type { createChatSession as createChatSessionType } from '../../src/conversation/session.js'

// The lint pass is development-only: an app bundled with NODE_ENV defined as "production" (what
// Vite, webpack and esbuild `define` do) must not carry `lintDefinition` when it imports only
// `createChatSession`. Checked on a real esbuild bundle of the session module.

const sessionModule = fileURLToPath(new URL('../../src/conversation/session.ts', import.meta.url))
const definitionModule = fileURLToPath(new URL('../../src/conversation/define-chat.ts', import.meta.url))
// A phrase only lint.ts produces (its unreachable-state warning).
const LINT_TEXT = 'cannot be reached from'

async function bundle(define: Record<string, string>): Promise<string> {
  const result = await build({
    stdin: { contents: `export { createChatSession } from ${JSON.stringify(sessionModule)}`, loader: 'ts', resolveDir: process.cwd() },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    define,
  })
  return result.outputFiles[0]?.text ?? ''
}

describe('lint in production bundles', () => {
  it('is dropped when NODE_ENV is defined as production, kept otherwise', async () => {
    const production = await bundle({ 'process.env.NODE_ENV': '"production"' })
    const development = await bundle({})
    expect(development).toContain(LINT_TEXT)
    expect(development).toContain('createChatSession')
    expect(production).toContain('createChatSession')
    expect(production).not.toContain(LINT_TEXT)
    expect(production.length).toBeLessThan(development.length)
  })

  it('runs where there is no `process` at all (a browser without a bundler)', async () => {
    const result = await build({
      stdin: { contents: `export { createChatSession } from ${JSON.stringify(sessionModule)}; export { defineChat } from ${JSON.stringify(definitionModule)}`, loader: 'ts', resolveDir: process.cwd() },
      bundle: true,
      format: 'iife',
      globalName: 'chatrail',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'silent',
    })
    const warnings: unknown[] = []
    const sandbox: Record<string, unknown> = { console: { warn: (...args: unknown[]) => warnings.push(args) }, crypto: globalThis.crypto, structuredClone }
    vm.runInNewContext(result.outputFiles[0]?.text ?? '', sandbox)
    expect(vm.runInNewContext('typeof process', sandbox)).toBe('undefined')
    const { createChatSession, defineChat } = sandbox.chatrail as { createChatSession: typeof createChatSessionType; defineChat: typeof defineChatType }
    const definition = defineChat({ id: 'no-process', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { go: 'done' } }, done: { final: true }, orphan: { final: true } }, routes: [], fallback: { response: 'sorry' } } })
    const session = createChatSession(definition)
    expect(session.getSnapshot().state).toBe('idle')
    // Lint is skipped there (development can't be told from production without `process`).
    expect(warnings).toEqual([])
  })
})
