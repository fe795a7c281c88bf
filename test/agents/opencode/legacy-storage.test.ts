import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readEventLog } from '../../../src/agents/opencode/event-log.js'
import { DISK_DETAIL } from '../../../src/agents/opencode/disk-chat.js'
import { listStoredSessions, readStoredChat } from '../../../src/agents/opencode/legacy-storage.js'
import { events, eventsPath, messagesJson, pendingJson } from './fixture-files.js'
import type { Scenario } from './fixture-files.js'

/**
 * The legacy JSON storage, laid out as OpenCode 1.18.33's own migration code reads it
 * (storage/session/<project>/<id>.json, storage/message/<session>/<id>.json,
 * storage/part/<message>/<id>.json), filled with the real session, message and part objects
 * recorded from the server.
 */

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function write(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, JSON.stringify(value, null, 2))
}

/** A data dir holding `scenario`'s session as the legacy files; `messages` defaults to the recorded final read. */
function storageOf(scenario: Scenario, messages: unknown[] = messagesJson(scenario)): { dataDir: string; sessionId: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'chatrail-oc-storage-'))
  dirs.push(dataDir)
  const info = events(scenario).filter((event) => event.type === 'session.updated').at(-1)?.properties.info as { id: string; projectID: string }
  write(join(dataDir, 'storage', 'session', info.projectID, `${info.id}.json`), info)
  for (const entry of messages as Array<{ info: { id: string }; parts: Array<{ id: string }> }>) {
    write(join(dataDir, 'storage', 'message', info.id, `${entry.info.id}.json`), entry.info)
    for (const part of entry.parts) write(join(dataDir, 'storage', 'part', entry.info.id, `${part.id}.json`), part)
  }
  return { dataDir, sessionId: info.id }
}

describe('OpenCode legacy JSON storage (the disk fallback)', () => {
  it('lists the sessions with title, directory and time', async () => {
    const { dataDir, sessionId } = storageOf('turn-completes')
    const { sessions, warnings } = await listStoredSessions(dataDir)
    expect(warnings).toEqual([])
    expect(sessions).toEqual([expect.objectContaining({ sessionId, projectId: 'global', title: 'Scripted title', directory: expect.stringMatching(/proj$/) as unknown, updatedAt: expect.any(Number) as unknown })])
  })

  it('reads the history the server had, but every state is unknown', async () => {
    for (const scenario of ['turn-completes', 'permission-once', 'question-answered'] as const) {
      const { dataDir, sessionId } = storageOf(scenario)
      const chat = await readStoredChat({ dataDir, sessionId })
      expect(chat.messages).toEqual((await readEventLog({ transcriptPath: eventsPath(scenario) })).messages)
      expect(chat).toMatchObject({ agent: 'opencode', sessionId, state: 'needs_input', status: 'unknown', detail: DISK_DETAIL })
    }
  })

  it('a session waiting on a permission on disk has no pending dialog: only the server knows', async () => {
    const pending = pendingJson('permission-once')
    const { dataDir, sessionId } = storageOf('permission-once', pending.messages)
    const chat = await readStoredChat({ dataDir, sessionId })
    expect(chat.pendingDialog).toBeUndefined()
    expect(chat.status).toBe('unknown')
    expect(chat.messages.find((message) => message.kind === 'tool')?.tool?.status).toBe('running')
  })

  it('a malformed file is skipped and named; a missing folder is an empty inventory; an unknown session is the idle empty chat', async () => {
    const { dataDir, sessionId } = storageOf('turn-completes')
    writeFileSync(join(dataDir, 'storage', 'message', sessionId, 'msg_zzz_broken.json'), '{"half": ')
    const chat = await readStoredChat({ dataDir, sessionId })
    expect(chat.warnings).toEqual([expect.stringContaining('msg_zzz_broken.json: not a JSON object, skipped')])
    expect(chat.messages).toHaveLength(2)
    expect(await listStoredSessions(join(dataDir, 'nowhere'))).toEqual({ sessions: [], warnings: [] })
    expect(await readStoredChat({ dataDir, sessionId: 'ses_unknown' })).toMatchObject({ state: 'idle', status: 'idle', messages: [] })
  })
})
