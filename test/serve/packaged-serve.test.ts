import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDevtoolsPage, buildServePage } from '../../src/cli/serve/build-page.js'
import { repoRoot, startNodeServer, type ServeProcess } from './serve-process.js'

// `chatrail serve` as published: tsup's build of the CLI with the page prebuilt into
// dist/serve-page (what `npm run build` does), run by plain Node through bin/chatrail.mjs, with a
// JavaScript definition module. The page's sources are not in the package, so a page served here
// can only be the prebuilt one: the published CLI needs no bundler at runtime.

const run = promisify(execFile)
const appDir = join(repoRoot, 'test-output', 'serve-package')
const packageDir = join(appDir, 'node_modules', 'chatrail')
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> }

describe('chatrail serve from the built package', () => {
  let server: ServeProcess | undefined

  beforeAll(async () => {
    rmSync(appDir, { recursive: true, force: true })
    mkdirSync(packageDir, { recursive: true })
    writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'chatrail-serve-check', private: true, type: 'module' }))
    cpSync(join(repoRoot, 'package.json'), join(packageDir, 'package.json'))
    cpSync(join(repoRoot, 'bin'), join(packageDir, 'bin'), { recursive: true })
    const externals = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies), 'react-dom', 'react/jsx-runtime'].flatMap((name) => ['--external', name])
    await run(process.execPath, [
      join(repoRoot, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--no-config', '--entry.index', 'src/index.ts', '--entry.cli', 'src/cli/main.ts',
      '--format', 'esm', '--target', 'node20', '--splitting', '--no-dts', '--no-sourcemap', '--silent', '--out-dir', join(packageDir, 'dist'), ...externals,
    ], { cwd: repoRoot, timeout: 180_000 })
    // both pages, as `npm run build` writes them (the devtools page is served at /devtools/)
    for (const [folder, files] of [['serve-page', await buildServePage()], ['devtools-page', await buildDevtoolsPage()]] as const) {
      for (const [path, file] of files) {
        const target = join(packageDir, 'dist', folder, path)
        mkdirSync(dirname(target), { recursive: true })
        writeFileSync(target, file.contents)
      }
    }
    writeFileSync(join(appDir, 'bot.js'), [
      "import { commandRoute, defineChat } from 'chatrail'",
      'export default defineChat({',
      "  id: 'packaged', chat: {},",
      "  conversation: { initial: 'idle', states: { idle: { on: { start: 'running' } }, running: {} },",
      "    routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Started.' })],",
      "    fallback: { response: 'Try /start.' } },",
      '})',
    ].join('\n'))
  }, 200_000)

  afterAll(async () => {
    await server?.stop('SIGTERM')
    rmSync(appDir, { recursive: true, force: true })
  })

  it('loads no bundler: esbuild only behind a variable import, vite nowhere', () => {
    const bundles = readdirSync(join(packageDir, 'dist')).filter((file) => file.endsWith('.js'))
    for (const file of bundles) {
      const source = readFileSync(join(packageDir, 'dist', file), 'utf8')
      expect(source, file).not.toMatch(/from\s*["'](?:esbuild|vite)["']|import\(\s*["'](?:esbuild|vite)["']\s*\)/)
      // Nor bundled in: esbuild's JS API reads this variable.
      expect(source, file).not.toContain('ESBUILD_BINARY_PATH')
    }
  })

  it('serves the prebuilt page and a deterministic turn, and stops cleanly', async () => {
    server = await startNodeServer([join(packageDir, 'bin', 'chatrail.mjs'), 'serve', 'bot.js', '--port', '0', '--store', 'memory'], { cwd: appDir })
    expect(server.stderr()).toBe('')
    expect(server.stdout()).toContain('page: prebuilt (dist/serve-page)')
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('./assets/page.js')
    expect(await (await fetch(`${server.url}/assets/page.js`)).text()).toBe(readFileSync(join(packageDir, 'dist', 'serve-page', 'assets', 'page.js'), 'utf8'))
    // The lazily loaded chunks (chatrail/react's message and dialog UI) are served too.
    const assets = readdirSync(join(packageDir, 'dist', 'serve-page', 'assets'))
    expect(assets.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(1)
    for (const file of assets) expect((await fetch(`${server.url}/assets/${file}`)).status, file).toBe(200)
    const turn = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'k1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '/start' }] }] }),
    })
    const stream = await turn.text()
    expect(stream).toContain('"delta":"Started."')
    expect(stream).toContain('"state":"running"')
    expect(await server.stop('SIGTERM')).toBe(0)
  }, 90_000)
})
