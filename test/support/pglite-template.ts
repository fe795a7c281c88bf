/**
 * A migrated PGlite made once per machine state, copied for every test that needs a PGlite but is
 * not about PGlite's first start. A new PGlite spends seconds in initdb and chatrail's migrations
 * before its first query (3–6 s on a 2-core machine, more under load); a copy of a migrated data
 * directory opens in about 0.5 s, an in-memory database loaded from its dump in about 1 s.
 *
 * ```ts
 * import { pgliteDataDirFromTemplate, pgliteFromTemplate, pgliteStoreFromTemplate, removeDataDir } from '../support/pglite-template.js'
 *
 * // a data directory (a new temp dir, mode 0700) for pgliteStore({ dataDir }) or a child process's
 * // `--store pglite:<dir>`; the caller removes it (afterAll) with removeDataDir or rmSync
 * const dataDir = await pgliteDataDirFromTemplate()
 * // or at a path of your choosing (created with its parents; must not exist or be empty)
 * await pgliteDataDirFromTemplate(join(root, 'db'))
 *
 * // an in-memory PGlite whose `public` schema is migrated; tests sharing it take a freshSchema()
 * // each, as before; the caller closes it
 * const db = await pgliteFromTemplate()
 *
 * // an in-memory pgliteStore that owns its database (store.close() closes it)
 * const store = await pgliteStoreFromTemplate({ clock })
 * ```
 *
 * The template lives under os.tmpdir() (or $CHATRAIL_PGLITE_TEMPLATE_ROOT) as
 * `chatrail-pglite-template-<uid>-<key>/` holding `data/` (a closed, migrated data directory),
 * `dump.tar` (`dumpDataDir('none')` of the same database) and `ready.json`. `<key>` hashes the
 * installed @electric-sql/pglite version, every file in src/store/sql (the migrations and the
 * statements they run) and TEMPLATE_FORMAT below, so a changed migration or PGlite makes a new
 * template and an old one is never used.
 *
 * It is built lazily by the first caller (the unit project has no global setup) and safely under
 * parallel vitest workers and child processes: a builder writes into a private temp directory and
 * renames it into place only once complete, so a reader sees either nothing or a whole template; a
 * directory at the final path without a matching ready.json (a half-deleted one) is moved aside and
 * rebuilt. A `.lock` directory lets one process build while the others wait for it (a lock whose
 * owner died, or older than LOCK_STALE_MS, is taken over). A template directory this user does not
 * own, or that others may write, is never used: the caller builds a private one instead. Templates
 * of other keys older than an hour, and dead builders' leftovers, are removed after a build.
 *
 * Tests whose subject IS the first start (creating a missing directory, initdb, migrating from an
 * older schema on a new database) must keep opening a new PGlite: this module is for the others.
 */
import { createHash, randomUUID } from 'node:crypto'
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import type { ConversationStore } from '../../src/store/index.js'
import { pgliteStore, pgliteStoreWith, type PgliteStoreOptions } from '../../src/store/pglite-store.js'
import { MIGRATIONS } from '../../src/store/sql/schema.js'
import { DATABASE_ROWS } from './store-rows.js'

/** Bump when the way the template is built changes (its files, how they are made). */
const TEMPLATE_FORMAT = 1
/** A build lock this old belongs to a builder that died (a build takes seconds, minutes under load). */
const LOCK_STALE_MS = 180_000
/** Templates of other keys (older sources) this old are removed when a new one is built. */
const OLD_TEMPLATE_MS = 3_600_000

const sqlSources = resolve(import.meta.dirname, '..', '..', 'src', 'store', 'sql')
/** Where templates live: os.tmpdir(), or CHATRAIL_PGLITE_TEMPLATE_ROOT (the race test points its children at a fresh one). */
const templateRoot = (): string => process.env.CHATRAIL_PGLITE_TEMPLATE_ROOT || tmpdir()
const uid = typeof process.getuid === 'function' ? process.getuid() : 0
const prefix = `chatrail-pglite-template-${uid}-`

interface Ready {
  key: string
  schemaVersion: number
  pglite: string
}

/** The template on disk: `data` is a data directory never to be opened in place, `dump` a tarball. */
export interface PgliteTemplate {
  readonly dir: string
  readonly dataDir: string
  readonly dumpFile: string
  readonly key: string
}

/** The installed PGlite's version (its package.json is not exported: found above its entry). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string }
      if (parsed.name === '@electric-sql/pglite' && parsed.version) return parsed.version
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('pglite template: the package.json of @electric-sql/pglite was not found')
    dir = parent
  }
}

function templateKey(): { key: string; pglite: string } {
  const pglite = pgliteVersion()
  const hash = createHash('sha256').update(`format ${TEMPLATE_FORMAT}\npglite ${pglite}\n`)
  for (const name of readdirSync(sqlSources).sort()) hash.update(`${name}\n`).update(readFileSync(join(sqlSources, name)))
  return { key: hash.digest('hex').slice(0, 20), pglite }
}

const templateAt = (dir: string, key: string): PgliteTemplate => ({ dir, dataDir: join(dir, 'data'), dumpFile: join(dir, 'dump.tar'), key })

/** Ours, not writable by others, complete, and for this key. */
function usable(dir: string, key: string): 'ready' | 'missing' | 'broken' | 'foreign' {
  let stat
  try {
    stat = lstatSync(dir)
  } catch {
    return 'missing'
  }
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) return 'foreign'
  try {
    const ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as Ready
    if (ready.key === key && statSync(join(dir, 'dump.tar')).isFile() && statSync(join(dir, 'data', 'PG_VERSION')).isFile()) return 'ready'
  } catch {
    // no ready.json (or no data): not finished, or partly removed
  }
  return 'broken'
}

/** Initdb, migrate, dump and close, all inside `staging` (a private directory nobody else reads yet). */
async function build(staging: string, key: string, pglite: string): Promise<void> {
  const { PGlite: PGliteClass } = await import('@electric-sql/pglite')
  const data = join(staging, 'data')
  mkdirSync(data, { mode: 0o700 })
  const db = await PGliteClass.create(data)
  try {
    const store = pgliteStore({ db })
    await store.list()
    await store.close()
    const [row] = (await db.query<{ v: number }>('SELECT max(version) AS v FROM public.chatrail_migrations')).rows
    const schemaVersion = MIGRATIONS.at(-1)?.version ?? 0
    if (row?.v !== schemaVersion) throw new Error(`pglite template: migrated to ${row?.v}, expected ${schemaVersion}`)
    const dump = await db.dumpDataDir('none')
    writeFileSync(join(staging, 'dump.tar'), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 })
    await db.close()
    const ready: Ready = { key, schemaVersion, pglite }
    writeFileSync(join(staging, 'ready.json'), JSON.stringify(ready))
  } finally {
    if (!db.closed) await db.close()
  }
}

/** Builds into a temp dir next to `dir` and renames it into place; losing the race to another builder is fine. */
async function buildInPlace(dir: string, key: string, pglite: string): Promise<void> {
  const staging = mkdtempSync(`${dir}.building-`)
  try {
    await build(staging, key, pglite)
    try {
      renameSync(staging, dir)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
      // another process renamed its template into place first: use that one
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Old keys' templates, and leftovers of builders that died (staging, aside and stale-lock dirs). */
function removeLeftovers(key: string): void {
  const root = templateRoot()
  for (const name of readdirSync(root)) {
    if (!name.startsWith(prefix) || name === `${prefix}${key}` || name === `${prefix}${key}.lock`) continue
    const path = join(root, name)
    const leftover = name.startsWith(`${prefix}${key}.`)
    try {
      const stat = lstatSync(path)
      if (stat.isDirectory() && stat.uid === uid && Date.now() - stat.mtimeMs > (leftover ? LOCK_STALE_MS : OLD_TEMPLATE_MS)) rmSync(path, { recursive: true, force: true })
    } catch {
      // removed meanwhile
    }
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The build lock: a directory holding its owner's pid and a token. Held by a dead process (or for
 * longer than any build takes), it is moved aside by one waiter (rename is atomic) and taken anew.
 * Two builders at once (a waiter that moved a lock just retaken) waste a build but stay correct:
 * each builds privately and renames into place.
 */
function tryLock(lock: string): string | undefined {
  const token = randomUUID()
  try {
    mkdirSync(lock, { mode: 0o700 })
    writeFileSync(join(lock, 'owner'), `${process.pid} ${token}`)
    return token
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  try {
    // no owner file yet, or half written: just made (or its maker died at once, which only the age tells)
    const owner = existsSync(join(lock, 'owner')) ? Number(readFileSync(join(lock, 'owner'), 'utf8').split(' ')[0]) : undefined
    if ((owner !== undefined && Number.isInteger(owner) && owner > 0 && !alive(owner)) || Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) {
      const aside = `${lock}.stale-${token}`
      renameSync(lock, aside)
      rmSync(aside, { recursive: true, force: true })
    }
  } catch {
    // released or moved meanwhile: look again next round
  }
  return undefined
}

function unlock(lock: string, token: string): void {
  try {
    if (readFileSync(join(lock, 'owner'), 'utf8').endsWith(` ${token}`)) rmSync(lock, { recursive: true, force: true })
  } catch {
    // moved aside by a waiter that took us for dead: nothing of ours is left
  }
}

/** Moves a broken template out of the way; one moved by mistake (completed meanwhile) goes back. */
function moveAside(dir: string, key: string): void {
  const aside = `${dir}.broken-${randomUUID()}`
  try {
    renameSync(dir, aside)
  } catch {
    return // gone already
  }
  if (usable(aside, key) === 'ready') {
    try {
      renameSync(aside, dir)
      return
    } catch {
      // a newer one is in place: ours is not needed
    }
  }
  rmSync(aside, { recursive: true, force: true })
}

async function ensureTemplate(): Promise<PgliteTemplate> {
  const { key, pglite } = templateKey()
  const dir = join(templateRoot(), `${prefix}${key}`)
  const lock = `${dir}.lock`
  for (;;) {
    const state = usable(dir, key)
    if (state === 'ready') return templateAt(dir, key)
    if (state === 'foreign') {
      // someone else's directory at our name: never trust it, build a private template for this process
      const own = mkdtempSync(join(tmpdir(), `chatrail-pglite-private-${uid}-`))
      process.once('exit', () => rmSync(own, { recursive: true, force: true }))
      await build(own, key, pglite)
      return templateAt(own, key)
    }
    const token = tryLock(lock)
    if (token === undefined) {
      // another process is building: wait for its rename (or for its lock to be found dead)
      await new Promise((resolveWait) => setTimeout(resolveWait, 100))
      continue
    }
    try {
      if (usable(dir, key) === 'broken') moveAside(dir, key)
      if (usable(dir, key) === 'missing') {
        await buildInPlace(dir, key, pglite)
        removeLeftovers(key)
      }
    } finally {
      unlock(lock, token)
    }
  }
}

let template: Promise<PgliteTemplate> | undefined
/** The template, built on first use in this process (or found, built by another). */
export function pgliteTemplate(): Promise<PgliteTemplate> {
  if (!template) {
    const building = ensureTemplate()
    template = building
    building.catch(() => {
      if (template === building) template = undefined
    })
  }
  return template
}

let dump: Promise<Blob> | undefined
/** The dump as a file-backed Blob (read when PGlite loads it; one per process, Blobs being immutable). */
const dumpBlob = (): Promise<Blob> => (dump ??= pgliteTemplate().then((t) => openAsBlob(t.dumpFile)))

/**
 * A data directory holding a copy of the migrated template, mode 0700: at `target` (created with
 * its parents; it must not exist or be empty) or, without one, a new temp directory. Open it with
 * `pgliteStore({ dataDir })` or hand it to a child process (`pglite:<dir>`). The caller removes it.
 */
export async function pgliteDataDirFromTemplate(target?: string): Promise<string> {
  const { dataDir } = await pgliteTemplate()
  let dir: string
  if (target === undefined) dir = mkdtempSync(join(tmpdir(), 'chatrail-pglite-'))
  else {
    dir = resolve(target)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    if (readdirSync(dir).length > 0) throw new Error(`pgliteDataDirFromTemplate: ${dir} is not empty`)
  }
  cpSync(dataDir, dir, { recursive: true })
  chmodSync(dir, 0o700)
  return dir
}

/** An in-memory PGlite started from the template's dump (`public` migrated). The caller closes it. */
export async function pgliteFromTemplate(): Promise<PGlite> {
  // `npm run test:unit` opens no database: a file that does belongs in `integrationSuites`
  // (vitest.config.ts) or guards its database rows with DATABASE_ROWS (test/support/store-rows.ts)
  if (!DATABASE_ROWS) throw new Error('CHATRAIL_TEST_STORES=memory (npm run test:unit) opens no database: guard this test with DATABASE_ROWS from test/support/store-rows.ts, or list its file in integrationSuites in vitest.config.ts')
  const [{ PGlite: PGliteClass }, loadDataDir] = await Promise.all([import('@electric-sql/pglite'), dumpBlob()])
  return PGliteClass.create({ loadDataDir })
}

/** An in-memory `pgliteStore` that owns a database started from the template's dump; `close()` closes it. */
export async function pgliteStoreFromTemplate(options: Omit<PgliteStoreOptions, 'dataDir' | 'db'> = {}): Promise<ConversationStore> {
  return pgliteStoreWith(options, { loadDataDir: await dumpBlob() })
}

/** Removes directories made by pgliteDataDirFromTemplate (for afterAll). */
export function removeDataDir(...dirs: readonly string[]): void {
  for (const dir of dirs) if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
}
