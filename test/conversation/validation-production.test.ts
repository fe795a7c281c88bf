import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import type { ChatrailConfigError } from '../../src/conversation/config-error.js'

// Validation stays in production (issue 32): a bundle with NODE_ENV defined as "production" still
// throws ChatrailConfigError with the code, the path and a hint that names the fix. Only the "did you
// mean" is a development aid: the production bundle has no edit distance, and its hint lists the
// declared names instead. Checked on real esbuild bundles of defineChat, run in a fresh context.

const definitionModule = fileURLToPath(new URL('../../src/conversation/define-chat.ts', import.meta.url))
// Only the edit distance (did-you-mean.ts) builds its rows this way.
const EDIT_DISTANCE_CODE = 'Array.from({ length: y.length + 1 }'

async function bundle(define: Record<string, string>, minify: boolean): Promise<string> {
  const result = await build({
    stdin: { contents: `export { defineChat } from ${JSON.stringify(definitionModule)}`, loader: 'ts', resolveDir: process.cwd() },
    bundle: true,
    minify,
    format: 'iife',
    globalName: 'chatrail',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
    define,
  })
  return result.outputFiles[0]?.text ?? ''
}

/** The error `defineChat` throws in `code`'s context for a definition whose initial state is misspelt. */
function misspeltInitial(code: string, env: string): ChatrailConfigError {
  const sandbox: Record<string, unknown> = { process: { env: { NODE_ENV: env } } }
  vm.runInNewContext(code, sandbox)
  // untyped on purpose: the definition below is invalid
  const { defineChat } = sandbox.chatrail as { defineChat: (input: unknown) => unknown }
  try {
    defineChat({ id: 'app', chat: {}, conversation: { initial: 'ilde', states: { idle: {}, busy: {} }, routes: [], fallback: { response: 'sorry' } } })
  } catch (error) {
    return error as ChatrailConfigError
  }
  throw new Error('defineChat accepted an undeclared initial state')
}

describe('definition validation in production bundles', () => {
  it('keeps the code, the path and a hint naming the fix; only the "did you mean" is left out', async () => {
    const production = misspeltInitial(await bundle({ 'process.env.NODE_ENV': '"production"' }, true), 'production')
    expect(production.name).toBe('ChatrailConfigError')
    expect(production.issues[0]).toMatchObject({ code: 'unknown_initial', path: ['conversation', 'initial'], hint: 'Declared states: "idle", "busy".' })
    expect(production.path).toEqual(['conversation', 'initial'])
    expect(production.message).toContain('"ilde"')

    const development = misspeltInitial(await bundle({}, false), 'development')
    expect(development.issues[0]).toMatchObject({ code: 'unknown_initial', path: ['conversation', 'initial'], hint: 'Did you mean "idle"?' })
  })

  it('drops the edit distance from the production bundle, and only there', async () => {
    const production = await bundle({ 'process.env.NODE_ENV': '"production"' }, false)
    const development = await bundle({}, false)
    expect(development).toContain(EDIT_DISTANCE_CODE)
    expect(production).toContain('Declared ')
    expect(production).not.toContain(EDIT_DISTANCE_CODE)
  })
})
