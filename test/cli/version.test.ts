import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { packageVersion } from '../../src/cli/version.js'

/** `chatrail --version` finds chatrail's package.json from wherever the CLI runs: src, dist, an installed copy, a bin symlink. */

const root = fileURLToPath(new URL('../../', import.meta.url))
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version
const temps: string[] = []
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('packageVersion', () => {
  it('reads the version from the source tree and from the built dist/cli.js', () => {
    expect(packageVersion(join(root, 'src', 'cli', 'main.ts'))).toBe(version)
    expect(packageVersion(join(root, 'dist', 'cli.js'))).toBe(version)
  })

  it('walks past a project package.json to chatrail\'s own, through node_modules/.bin symlinks', () => {
    const project = mkdtempSync(join(tmpdir(), 'chatrail-version-'))
    temps.push(project)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-app', version: '9.9.9' }))
    const installed = join(project, 'node_modules', 'chatrail')
    mkdirSync(join(installed, 'bin'), { recursive: true })
    mkdirSync(join(installed, 'dist'), { recursive: true })
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'chatrail', version: '1.2.3' }))
    cpSync(join(root, 'bin', 'chatrail.mjs'), join(installed, 'bin', 'chatrail.mjs'))
    mkdirSync(join(project, 'node_modules', '.bin'))
    symlinkSync('../chatrail/bin/chatrail.mjs', join(project, 'node_modules', '.bin', 'chatrail'))
    expect(packageVersion(join(project, 'node_modules', '.bin', 'chatrail'))).toBe('1.2.3')
    expect(packageVersion(join(installed, 'dist', 'cli.js'))).toBe('1.2.3')
    expect(packageVersion(join(project, 'index.js'))).toBeUndefined()
  })
})
