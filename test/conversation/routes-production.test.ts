import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ChatrailConfigError } from '../../src/conversation/config-error.js'
import { commandRoute, eventRoute, patternRoute, route, textRoute } from '../../src/conversation/routes.js'

// The route constructors' argument checks are development checks (issue 32), as the definition
// check they repeat: under NODE_ENV "production" they are skipped (a bundler's `define` drops their
// code), in development they throw `ChatrailConfigError` as before, and a valid route is the same
// object either way.

afterEach(() => {
  vi.unstubAllEnvs()
})

const mistakes: [string, () => unknown][] = [
  ['an empty command', () => commandRoute({ id: 'a', command: '   ', event: 'go', response: 'x' })],
  ['no texts', () => textRoute({ id: 'a', texts: [], response: 'x' })],
  ['a blank text', () => textRoute({ id: 'a', text: ' ', response: 'x' })],
  ['a pattern route whose assign is no function', () => patternRoute({ id: 'a', pattern: /x/, assign: 1 as unknown as true, response: 'x' })],
  ['a custom route without match', () => route({ id: 'a', match: undefined as unknown as () => boolean, response: 'x' })],
  ['a uiEvent that is not identifier-safe', () => eventRoute({ id: 'a', uiEvent: 'two words', response: 'x' })],
]

describe('route constructors under NODE_ENV', () => {
  it('throw ChatrailConfigError for a developer mistake in development', () => {
    vi.stubEnv('NODE_ENV', 'development')
    for (const [, make] of mistakes) expect(make).toThrow(ChatrailConfigError)
  })

  it('skip the check in production', () => {
    vi.stubEnv('NODE_ENV', 'production')
    for (const [name, make] of mistakes) expect(make, name).not.toThrow()
  })

  it('build the same route from valid options in both modes', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,11}[A-Za-z0-9]$/)
    fc.assert(
      fc.property(word, fc.boolean(), fc.boolean(), fc.array(word, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/), (command, caseSensitive, trim, texts, uiEvent) => {
        const make = () => [
          commandRoute({ id: 'c', command, caseSensitive, trim, event: 'go', response: 'x' }),
          textRoute({ id: 't', texts, response: 'x' }),
          textRoute({ id: 't1', text: texts[0] as string, response: 'x' }),
          eventRoute({ id: 'e', uiEvent, response: 'x' }),
          patternRoute({ id: 'p', pattern: /order (?<n>\d+)/gi, assign: true, response: 'x' }),
        ]
        vi.stubEnv('NODE_ENV', 'development')
        const development = make()
        vi.stubEnv('NODE_ENV', 'production')
        const production = make()
        vi.unstubAllEnvs()
        expect(production).toEqual(development)
        expect(production.map((r) => Object.keys(r))).toEqual(development.map((r) => Object.keys(r)))
      }),
      { numRuns: 100 },
    )
  })

  it("leave the checks' code out of a bundle whose define makes NODE_ENV production", async () => {
    const routesModule = fileURLToPath(new URL('../../src/conversation/routes.ts', import.meta.url))
    const bundle = async (define: Record<string, string>): Promise<string> => {
      const result = await build({
        stdin: { contents: `export { commandRoute, textRoute } from ${JSON.stringify(routesModule)}`, loader: 'ts', resolveDir: process.cwd() },
        bundle: true, minify: true, format: 'esm', platform: 'neutral', packages: 'external', write: false, logLevel: 'silent', define,
      })
      return result.outputFiles[0]?.text ?? ''
    }
    const [production, development] = await Promise.all([bundle({ 'process.env.NODE_ENV': '"production"' }), bundle({})])
    expect(development).toContain('the command is empty.')
    expect(production).not.toContain('the command is empty.')
    expect(production).not.toContain('non-blank strings')
    expect(production.length).toBeLessThan(development.length)
  })
})
