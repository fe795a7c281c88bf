import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtPackage } from '../support/built-package.js'

/**
 * The matcher types as an app gets them: `chatrail/testing/vitest`'s declarations as `npm run
 * build` makes them (the published .d.ts, which imports nothing from vitest), resolved through an exports map by
 * `tsc`, in both import orders. Augmenting vitest's `Assertion` worked only when vitest's types
 * were loaded first (`import { expect } from 'vitest'` above the chatrail import); the other order
 * was TS2339 on `toRoute`.
 */

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
let app: string

const tsconfig = (file: string, skipLibCheck: boolean): string =>
  JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck, noEmit: true, types: [] }, files: [file] })

async function tsc(name: string, source: string, skipLibCheck = true): Promise<{ code: number; output: string }> {
  writeFileSync(join(app, `${name}.ts`), source)
  writeFileSync(join(app, `tsconfig.${name}.json`), tsconfig(`${name}.ts`, skipLibCheck))
  try {
    const { stdout } = await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', `tsconfig.${name}.json`], { cwd: app, timeout: 120_000 })
    return { code: 0, output: stdout }
  } catch (error) {
    const failure = error as { code?: number; stdout?: string }
    return { code: failure.code ?? 1, output: failure.stdout ?? String(error) }
  }
}

const uses = `declare const turn: unknown
expect(turn).toRoute('start')
expect(turn).not.toBeReplayed()
expect([turn]).toContainEqual(expect.toRoute('start'))
expect(turn).toBeKind('deterministic')
`

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'chatrail-matcher-types-'))
  const packageDir = join(app, 'node_modules', 'chatrail')
  mkdirSync(packageDir, { recursive: true })
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'matcher-types-app', private: true, type: 'module' }))
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'chatrail', type: 'module', exports: { './testing/vitest': { types: './dist/testing-vitest.d.ts' } } }))
  for (const dependency of ['vitest', '@vitest', 'vite', '@types', 'json-schema']) {
    try {
      symlinkSync(join(root, 'node_modules', dependency), join(app, 'node_modules', dependency))
    } catch {
      // Not installed (json-schema's types live under @types): nothing to link.
    }
  }
  // The declarations `npm run build` makes, shared with the other built-package suites (one build
  // per state of the sources; a build of its own cost this file ~40 s of CPU).
  symlinkSync(join(await builtPackage(), 'dist'), join(packageDir, 'dist'))
}, 420_000)

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true })
})

describe('the built chatrail/testing/vitest matcher types', () => {
  it('compile with chatrail imported before vitest', async () => {
    const result = await tsc('chatrail-first', `import 'chatrail/testing/vitest'\nimport { expect } from 'vitest'\n${uses}`)
    expect(result).toEqual({ code: 0, output: '' })
  }, 150_000)

  it('compile with vitest imported before chatrail', async () => {
    const result = await tsc('vitest-first', `import { expect } from 'vitest'\nimport 'chatrail/testing/vitest'\n${uses}`)
    expect(result).toEqual({ code: 0, output: '' })
  }, 150_000)

  it('reject a misspelt matcher and a wrong argument, in both orders', async () => {
    for (const [name, imports] of [
      ['typo-chatrail-first', `import 'chatrail/testing/vitest'\nimport { expect } from 'vitest'`],
      ['typo-vitest-first', `import { expect } from 'vitest'\nimport 'chatrail/testing/vitest'`],
    ] as const) {
      const result = await tsc(name, `${imports}\ndeclare const turn: unknown\nexpect(turn).toRoot('start')\nexpect(turn).toBeKind('magic')\n`)
      expect(result.code).not.toBe(0)
      expect(result.output).toMatch(/TS(2339|2551): Property 'toRoot' does not exist/)
      expect(result.output).toMatch(/TS2345: Argument of type '"magic"'/)
    }
  }, 150_000)

  it('leave vitest\'s own declarations without errors (no skipLibCheck): the two augmented interfaces agree', async () => {
    const result = await tsc('lib-check', `import 'chatrail/testing/vitest'\nimport { expect } from 'vitest'\n${uses}`, false)
    const ours = result.output.split('\n').filter((line) => /@vitest\/expect|chatrail|lib-check/.test(line))
    expect(ours).toEqual([])
  }, 150_000)
})
