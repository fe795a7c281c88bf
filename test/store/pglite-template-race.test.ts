import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../src/store/sql/schema.js'
import { pgliteTemplate, type PgliteTemplate } from '../support/pglite-template.js'

// Up to three vitest workers and their child processes ask for the PGlite template at once, and
// the first run after a change to src/store/sql finds none: processes racing for a template that
// is not there (here: half made, and locked by a builder that died) must all end up with one whole
// template, and leave nothing else behind. (The template itself: pglite-template.test.ts.)

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('pglite template: the race to build it', () => {
  it('processes racing on a half-made template behind a dead builder\'s lock all get one whole template; nothing is left behind', async () => {
    const { key } = await pgliteTemplate()
    const tmp = mkdtempSync(join(tmpdir(), 'chatrail-template-race-'))
    dirs.push(tmp)
    const name = `chatrail-pglite-template-${process.getuid?.() ?? 0}-${key}`
    // half made: the final name exists (a tmp cleaner took ready.json and the data)
    mkdirSync(join(tmp, name), { mode: 0o700 })
    writeFileSync(join(tmp, name, 'leftover'), '')
    // the build lock of a process that died
    const { stdout: deadPid } = await promisify(execFile)(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
    mkdirSync(join(tmp, `${name}.lock`), { mode: 0o700 })
    writeFileSync(join(tmp, `${name}.lock`, 'owner'), `${deadPid} token`)

    const script = join(import.meta.dirname, 'support', 'template-child.ts')
    const ask = (): Promise<PgliteTemplate> => new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, CHATRAIL_PGLITE_TEMPLATE_ROOT: tmp }, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      let err = ''
      child.stdout.on('data', (data: Buffer) => { out += data.toString() })
      child.stderr.on('data', (data: Buffer) => { err += data.toString() })
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as PgliteTemplate) : reject(new Error(`template child exited ${code}: ${err}`))))
    })
    const got = await Promise.all([ask(), ask(), ask()])
    for (const template of got) expect(template).toEqual({ dir: join(tmp, name), dataDir: join(tmp, name, 'data'), dumpFile: join(tmp, name, 'dump.tar'), key })
    expect(JSON.parse(readFileSync(join(tmp, name, 'ready.json'), 'utf8'))).toMatchObject({ key, schemaVersion: MIGRATIONS.at(-1)?.version })
    expect(existsSync(join(tmp, name, 'leftover'))).toBe(false)
    expect(statSync(join(tmp, name)).mode & 0o777).toBe(0o700)
    // no staging, aside or lock directory survives
    expect(readdirSync(tmp)).toEqual([name])
    rmSync(join(tmp, name), { recursive: true, force: true })
  }, 180_000)
})
