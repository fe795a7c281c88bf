import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { listDatabaseSessions, readDatabaseChat } from '../../../src/agents/opencode/database.js'
import { readEventLog } from '../../../src/agents/opencode/event-log.js'
import { DISK_DETAIL } from '../../../src/agents/opencode/disk-chat.js'
import { eventsPath, OPENCODE_FIXTURES, SCENARIOS } from './fixture-files.js'

/**
 * opencode.db, read with better-sqlite3, on the real database the recorder captured (five sessions,
 * checkpointed). The WAL case (a running server's fresh writes) is in opencode-live.test.ts.
 */

const dir = mkdtempSync(join(tmpdir(), 'chatrail-oc-db-'))
const dbPath = join(dir, 'opencode.db')
copyFileSync(join(OPENCODE_FIXTURES, 'opencode.db'), dbPath) // readonly opens may still want the -shm beside it
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('opencode.db (the disk fallback)', () => {
  it('lists every recorded session, newest first', async () => {
    const sessions = await listDatabaseSessions(dbPath)
    expect(sessions).toHaveLength(SCENARIOS.length)
    expect(sessions.every((session) => session.sessionId.startsWith('ses_') && session.projectId === 'global' && session.title === 'Scripted title')).toBe(true)
    const times = sessions.map((session) => session.updatedAt ?? 0)
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it.each(SCENARIOS)('%s: the same messages the event stream folded to; the state unknown', async (scenario) => {
    const folded = await readEventLog({ transcriptPath: eventsPath(scenario) })
    const chat = await readDatabaseChat({ dbPath, sessionId: folded.sessionId ?? '' })
    expect(chat.messages).toEqual(folded.messages)
    expect(chat).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'unknown', detail: DISK_DETAIL, warnings: [] })
    expect(chat.pendingDialog).toBeUndefined()
  })

  it('an unknown session is the idle empty chat; a file that is not a database is a clear error', async () => {
    expect(await readDatabaseChat({ dbPath, sessionId: 'ses_unknown' })).toMatchObject({ state: 'idle', status: 'idle', messages: [] })
    const bogus = join(dir, 'bogus.db')
    writeFileSync(bogus, 'not a database at all, just text that is long enough to have a header')
    await expect(listDatabaseSessions(bogus)).rejects.toMatchObject({ code: 'OPENCODE_DB_UNREADABLE' })
    await expect(listDatabaseSessions(join(dir, 'missing.db'))).rejects.toMatchObject({ code: 'OPENCODE_DB_UNREADABLE', message: expect.stringContaining('missing.db') as unknown })
  })
})
