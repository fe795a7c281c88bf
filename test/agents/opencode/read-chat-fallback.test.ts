import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { readDatabaseChat } from '../../../src/agents/opencode/database.js'
import { defaultOpencodeDataDir } from '../../../src/agents/opencode/disk-fallback.js'
import { OpencodeServerError } from '../../../src/agents/opencode/opencode-errors.js'
import { readChat } from '../../../src/agents/opencode/read-chat.js'
import { events, messagesJson, pendingJson } from './fixture-files.js'
import { copyRecordedDatabase } from './fallback-files.js'
import type { DataDirCopy } from './fallback-files.js'

/**
 * `readChat` when nothing answers at `baseUrl` (connection refused): the session's history from
 * OpenCode's files (the recorded `opencode.db`, or legacy JSON files), `unknown`, saying the server
 * is not reachable — never a throw, unless the files do not have the session either.
 */

const SESSION = pendingJson('permission-once').sessionId
let data: DataDirCopy
let url: string
beforeAll(async () => {
  data = await copyRecordedDatabase(Date.now())
  url = `http://127.0.0.1:${await freePort()}`
})
afterAll(() => data.cleanup())

const isUnreachable = (error: unknown): boolean => OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_UNREACHABLE'

describe('readChat falls back to the disk when the server is unreachable', () => {
  it('reads the session\'s history from opencode.db: needs_input / unknown, the detail names the server, no dialog', async () => {
    const chat = await readChat({ baseUrl: url, sessionId: SESSION, dataDir: data.dataDir })
    expect(chat).toMatchObject({ agent: 'opencode', sessionId: SESSION, state: 'needs_input', status: 'unknown' })
    expect(chat.detail).toContain(`the OpenCode server at ${url} is not reachable`)
    expect(chat.pendingDialog).toBeUndefined()
    const fromDatabase = await readDatabaseChat({ dbPath: join(data.dataDir, 'opencode.db'), sessionId: SESSION })
    expect(chat.messages).toEqual(fromDatabase.messages)
    expect(chat.messages.find((message) => message.kind === 'tool')?.tool).toMatchObject({ name: 'bash', status: 'ok' })
  })

  it('reads the legacy JSON storage when there is no opencode.db', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chatrail-oc-legacy-'))
    try {
      const info = events('turn-completes').filter((event) => event.type === 'session.updated').at(-1)?.properties.info as { id: string; projectID: string }
      const write = (path: string, value: unknown): void => {
        mkdirSync(join(path, '..'), { recursive: true })
        writeFileSync(path, JSON.stringify(value))
      }
      write(join(dataDir, 'storage', 'session', info.projectID, `${info.id}.json`), info)
      for (const entry of messagesJson('turn-completes') as Array<{ info: { id: string }; parts: Array<{ id: string }> }>) {
        write(join(dataDir, 'storage', 'message', info.id, `${entry.info.id}.json`), entry.info)
        for (const part of entry.parts) write(join(dataDir, 'storage', 'part', entry.info.id, `${part.id}.json`), part)
      }
      const chat = await readChat({ baseUrl: url, sessionId: info.id, dataDir })
      expect(chat).toMatchObject({ state: 'needs_input', status: 'unknown' })
      expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
      expect(chat.messages[1]?.text).toBe('Hello from OpenCode — café ✓')
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('a session the files do not have: the server\'s OPENCODE_UNREACHABLE, with how to start it', async () => {
    const error = await readChat({ baseUrl: url, sessionId: 'ses_notOnDiskEither1', dataDir: data.dataDir }).catch((caught: unknown) => caught)
    expect(isUnreachable(error)).toBe(true)
    expect((error as OpencodeServerError).hint).toContain('opencode serve')
  })

  it('dataDir: false never falls back', async () => {
    await expect(readChat({ baseUrl: url, sessionId: SESSION, dataDir: false })).rejects.toSatisfy(isUnreachable)
  })

  it('a database that cannot be read: still OPENCODE_UNREACHABLE, saying why the files did not help', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chatrail-oc-broken-'))
    try {
      writeFileSync(join(dataDir, 'opencode.db'), 'not a database')
      const error = await readChat({ baseUrl: url, sessionId: SESSION, dataDir }).catch((caught: unknown) => caught)
      expect(isUnreachable(error)).toBe(true)
      expect((error as Error).message).toContain('Its files could not be read either')
      expect((error as Error).message).toContain(join(dataDir, 'opencode.db'))
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('the default data folder is $XDG_DATA_HOME/opencode, else ~/.local/share/opencode', () => {
    expect(defaultOpencodeDataDir({ XDG_DATA_HOME: '/data' }, '/home/me')).toBe('/data/opencode')
    expect(defaultOpencodeDataDir({ XDG_DATA_HOME: '' }, '/home/me')).toBe('/home/me/.local/share/opencode')
    expect(defaultOpencodeDataDir({}, '/home/me')).toBe('/home/me/.local/share/opencode')
  })
})
