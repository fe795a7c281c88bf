import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteStore } from '../../src/store/index.js'
import { MIGRATIONS } from '../../src/store/sql/schema.js'
import { pgliteDataDirFromTemplate, pgliteFromTemplate, pgliteStoreFromTemplate, removeDataDir } from '../support/pglite-template.js'

// The test-support template every PGlite test but the first-start ones copies: a copy must be a
// real, migrated, private database (the race for building it: pglite-template-race.test.ts).

const dirs: string[] = []
afterAll(() => removeDataDir(...dirs))
const message = (id: string) => ({ id, role: 'user' as const, content: id, status: 'complete' as const, createdAt: new Date(0) })
const definition = { id: 'template', revision: 1 }

describe('pglite template (test/support/pglite-template.ts)', () => {
  it('a copy is a migrated database of its own, mode 0700, that pgliteStore opens', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatrail-template-test-'))
    dirs.push(root)
    const a = await pgliteDataDirFromTemplate()
    dirs.push(a)
    const b = await pgliteDataDirFromTemplate(join(root, 'nested', 'b'))
    expect(statSync(a).mode & 0o777).toBe(0o700)
    expect(statSync(b).mode & 0o777).toBe(0o700)
    await expect(pgliteDataDirFromTemplate(b)).rejects.toThrow(/is not empty/)
    const store = pgliteStore({ dataDir: a })
    await store.append('c1', { expectedVersion: 0, messages: [message('u1')], definition })
    expect((await store.load('c1'))?.messages.map((m) => m.id)).toEqual(['u1'])
    await store.close()
    // another copy (and so the template) never sees what a copy wrote
    const other = pgliteStore({ dataDir: b })
    expect((await other.list()).conversations).toEqual([])
    await other.close()
  }, 120_000)

  it('the dump starts an in-memory database at the newest migration; a store from it owns it', async () => {
    const db = await pgliteFromTemplate()
    try {
      const [row] = (await db.query<{ v: number }>('SELECT max(version) AS v FROM public.chatrail_migrations')).rows
      expect(row?.v).toBe(MIGRATIONS.at(-1)?.version)
      expect((await db.query('SELECT 1 FROM public.chatrail_conversations')).rows).toEqual([])
    } finally {
      await db.close()
    }
    const store = await pgliteStoreFromTemplate({ clock: () => 42 })
    const { version } = await store.append('c1', { expectedVersion: 0, messages: [message('u1')], definition })
    expect(version).toBe(1)
    expect((await store.load('c1'))?.messages.map((m) => m.id)).toEqual(['u1'])
    await store.close()
    await expect(store.list()).rejects.toThrow(/closed/)
  }, 120_000)

})
