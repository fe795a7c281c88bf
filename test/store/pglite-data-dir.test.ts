import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isStoreUnavailableError, pgliteStore } from '../../src/store/index.js'

// pgliteStore({ dataDir: './data/chat' }) where ./data does not exist used to fail with PGlite's
// bare "ENOENT mkdir" and the hint "Check that the database is running".
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-datadir-'))
  dirs.push(dir)
  return dir
}

describe('pgliteStore data directory', () => {
  it('creates missing parents, mode 0700, and the store works there', async () => {
    const root = tempDir()
    const dataDir = join(root, 'data', 'chat')
    const store = pgliteStore({ dataDir })
    try {
      await store.append('c1', { expectedVersion: 0, messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }], definition: { id: 'd', revision: 1 } })
      expect((await store.load('c1'))?.messages.map((m) => m.id)).toEqual(['u1'])
    } finally {
      await store.close()
    }
    expect(statSync(join(root, 'data')).mode & 0o777).toBe(0o700)
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
  }, 60_000)

  it('a directory that cannot be created: StoreUnavailableError whose hint names it, not "is the database running"', async () => {
    const blocker = join(tempDir(), 'a-file')
    writeFileSync(blocker, '')
    const dataDir = join(blocker, 'chat')
    const store = pgliteStore({ dataDir })
    const error = await store.load('c1').catch((caught: unknown) => caught)
    expect(isStoreUnavailableError(error)).toBe(true)
    if (!isStoreUnavailableError(error)) return
    expect(error.directory).toBe(dataDir)
    expect(error.message).toContain('ENOTDIR')
    expect(error.hint).toContain(`The PGlite directory ${dataDir} does not exist`)
    expect(error.hint).not.toContain('database is running')
    await store.close()
  }, 60_000)
})
