import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtPackage } from '../support/built-package.js'
import { fenceProblem, mirrorCheck, mirrorsOf, moduleName, readDocBlocks, type DocBlock } from './doc-blocks.js'

/**
 * Every ```ts / ```tsx block of README.md and docs/ is a module an app could paste: this writes each
 * one into a project whose node_modules/chatrail is the built package (ESM + CJS + `.d.ts`, shared
 * with test/package through test/support/built-package.ts), typechecks all of them as ONE strict
 * TypeScript program (NodeNext, as an app would), and runs the blocks fenced ```ts run with node,
 * each in a fresh directory. A failure names the doc's file and line. What each fence means:
 * doc-blocks.ts and CONTRIBUTING.md.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const project = join(root, 'test-output', 'docs-snippets')
const snippets = join(project, 'snippets')
// Modules the blocks import as an app's own (`./definition.js`, `./my-agent.js`, …): small stand-ins.
const appModules = join(root, 'test', 'docs', 'app')
const runTimeoutMs = 60_000

const blocks = readDocBlocks(root)
const checked = blocks.filter((block) => block.kind === 'module' || block.kind === 'program')
const programs = blocks.filter((block) => block.kind === 'program')
const signatures = blocks.filter((block) => block.kind === 'signature')

/** The compiler's diagnostics, keyed by the file they are in (relative to snippets/). */
const diagnostics = new Map<string, string[]>()
const timings: Record<string, number> = {}
const started = Date.now()

/**
 * One program over every block, through the compiler API: the `tsc` command stops at syntax errors
 * (one broken block would hide every type error elsewhere), the API gives each file both kinds.
 * It also emits the JavaScript the programs run.
 */
function typecheck(): void {
  const config = ts.readConfigFile(join(project, 'tsconfig.json'), (path) => ts.sys.readFile(path))
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, project)
  const program = ts.createProgram(parsed.fileNames, parsed.options)
  program.emit()
  const byName = new Map(checked.map((block) => [moduleName(block), block]))
  const found: [string, string][] = [...parsed.errors, ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((diagnostic) => ['(project)', ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')])
  for (const file of program.getSourceFiles().filter((source) => source.fileName.startsWith(`${snippets}/`))) {
    const name = file.fileName.slice(snippets.length + 1)
    const block = byName.get(name)
    for (const diagnostic of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
      const { line, character } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
      const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ')}`
      if (block === undefined) {
        found.push([name, `test/docs/app/${name}:${line + 1}:${character + 1} ${message}`])
        continue
      }
      const codeLines = block.code.split('\n').length
      const mirrored = mirrorsOf(block)
      // A line past the block's own is the appended mirror check: it speaks of the whole block.
      if (line >= codeLines && mirrored !== undefined) found.push([name, `${block.file}:${block.line}: the block's ${mirrored.name} differs from ${mirrored.name} of ${mirrored.module}: ${message}`])
      else found.push([name, `${block.file}:${block.line + line + 1}:${block.indent + character + 1} ${message}`])
    }
  }
  for (const [name, message] of found) diagnostics.set(name, [...(diagnostics.get(name) ?? []), message])
}

function nodeRun(file: string, cwd: string): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd, timeout: runTimeoutMs, env: { ...process.env, HOME: cwd, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error.code ?? (error.killed ? `killed after ${runTimeoutMs} ms` : null)), stdout, stderr })
    })
  })
}

const where = (block: DocBlock): string => `${block.file}:${block.line}`

beforeAll(async () => {
  const build = Date.now()
  const pkg = await builtPackage()
  timings.build = Date.now() - build
  rmSync(project, { recursive: true, force: true })
  mkdirSync(join(project, 'node_modules'), { recursive: true })
  mkdirSync(snippets)
  // The checkout's node_modules (react, vitest, zod, @types/node…) resolve from above this folder, as
  // an app's own dependencies would; chatrail resolves to the build, never to the checkout's src.
  symlinkSync(pkg, join(project, 'node_modules', 'chatrail'), 'dir')
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'chatrail-doc-snippets', private: true, type: 'module' }))
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      jsx: 'react-jsx', strict: true, skipLibCheck: true, types: ['node'], rootDir: 'snippets', outDir: 'out',
    },
    include: ['snippets'],
  }, null, 2))
  for (const name of readdirSync(appModules)) cpSync(join(appModules, name), join(snippets, name))
  for (const block of checked) writeFileSync(join(snippets, moduleName(block)), `${block.code}\n${mirrorCheck(block)}\n`)
  const compile = Date.now()
  typecheck()
  timings.typecheck = Date.now() - compile
}, 420_000)

afterAll(() => {
  timings.total = Date.now() - started
  const seconds = (ms: number | undefined): string => `${((ms ?? 0) / 1000).toFixed(1)} s`
  console.log(
    `docs snippets: ${checked.length + signatures.length} TypeScript blocks in README.md and docs/ — ${checked.length} typechecked modules, ${programs.length} of them run, ${signatures.length} signatures` +
      ` (build ${seconds(timings.build)}, typecheck ${seconds(timings.typecheck)}, total ${seconds(timings.total)})`,
  )
})

describe('the docs code blocks', () => {
  it('every fence is one the check knows, and TypeScript is never fenced as text', () => {
    const problems = blocks.flatMap((block) => {
      const problem = fenceProblem(block)
      return problem === undefined ? [] : [`${where(block)}: ${problem}`]
    })
    expect(problems).toEqual([])
    // The extraction itself found the docs' modules and programs (a parser that found none would pass everything).
    expect(checked.length).toBeGreaterThan(30)
    expect(programs.length).toBeGreaterThan(0)
  })

  it('the stand-in app modules the blocks import typecheck', () => {
    const own = [...diagnostics].filter(([file]) => !checked.some((block) => moduleName(block) === file))
    expect(own.flatMap(([, messages]) => messages)).toEqual([])
  })

  describe.each(checked.map((block) => [where(block), block] as const))('%s', (_where, block) => {
    it('typechecks strictly against the built package', () => {
      expect(diagnostics.get(moduleName(block)) ?? [], `${where(block)} (fenced ${block.lang}) must be a complete module; fence a shape ts-signature`).toEqual([])
    })

    if (block.kind === 'program') {
      it('runs to exit 0 in a fresh directory', async () => {
        const cwd = mkdtempSync(join(tmpdir(), 'chatrail-doc-'))
        try {
          const result = await nodeRun(join(project, 'out', moduleName(block).replace(/\.tsx?$/, '.js')), cwd)
          expect({ code: result.code, stderr: result.stderr.trim() }, `${where(block)} printed:\n${result.stdout}`).toEqual({ code: 0, stderr: '' })
        } finally {
          rmSync(cwd, { recursive: true, force: true })
        }
      }, runTimeoutMs + 10_000)
    }
  })
})
