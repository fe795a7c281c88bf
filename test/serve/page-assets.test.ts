import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadDevtoolsPage, loadServePage } from '../../src/cli/serve/page-assets.js'

/**
 * Where `chatrail serve` looks for its page. The built CLI (dist/cli.js) used to name a source path
 * two directories above the package when the page was missing; the error must name the real files.
 */

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('the serve page', () => {
  it('a package without its page names dist/serve-page and the package\'s own renderers/serve-page', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatrail-page-'))
    dirs.push(root)
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'chatrail', version: '0.0.0' }))
    const dist = join(root, 'dist')
    mkdirSync(dist)
    const error = await loadServePage(dist).catch((caught: unknown) => caught)
    expect(String(error)).toContain(`${join(dist, 'serve-page', 'index.html')} does not exist, nor does ${join(root, 'renderers', 'serve-page', 'main.tsx')}`)
    expect(error).toMatchObject({ code: 'SERVE_PAGE_MISSING' })
  })

  it('outside any chatrail package it says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-page-'))
    dirs.push(dir)
    const error = await loadServePage(dir).catch((caught: unknown) => caught)
    expect(String(error)).toContain(`and no chatrail package.json is above ${dir}`)
  })

  it('a prebuilt page beside the module is served as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-page-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'serve-page'))
    writeFileSync(join(dir, 'serve-page', 'index.html'), '<!doctype html><title>chat</title>')
    const page = await loadServePage(dir)
    expect(page.source).toBe('prebuilt')
    expect(page.files.get('/index.html')?.contents.toString()).toContain('<title>chat</title>')
  })

  it('the devtools page (issue 33) comes from dist/devtools-page, or names it and renderers/devtools/page when missing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatrail-page-'))
    dirs.push(root)
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'chatrail', version: '0.0.0' }))
    const dist = join(root, 'dist')
    mkdirSync(dist)
    const error = await loadDevtoolsPage(dist).catch((caught: unknown) => caught)
    expect(String(error)).toContain(`the devtools page is missing: ${join(dist, 'devtools-page', 'index.html')} does not exist, nor does ${join(root, 'renderers', 'devtools', 'page', 'main.tsx')}`)
    mkdirSync(join(dist, 'devtools-page'))
    writeFileSync(join(dist, 'devtools-page', 'index.html'), '<!doctype html><title>devtools</title>')
    const page = await loadDevtoolsPage(dist)
    expect(page.source).toBe('prebuilt')
    expect(page.files.get('/index.html')?.contents.toString()).toContain('<title>devtools</title>')
  })
})
