import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { answerQuestion, driveTurn, replyPermission, startRig, TAGS } from './opencode-scenarios.js'
import type { DriveOptions, OpencodeRig } from './opencode-scenarios.js'

/**
 * Re-records test/fixtures/opencode/ from the real `opencode serve` (1.18.33) and the scripted
 * Anthropic server: per scenario the session's event stream (`events.jsonl`, one `GET /event` data
 * object per line), `GET /session/:id/message` after the turn (`messages.json`) and, where the
 * server waited on a permission or question, the four reads taken while it waited (`pending.json`);
 * then the server's `opencode.db` (checkpointed and vacuumed with the `sqlite3` CLI) and the parts of its
 * OpenAPI spec (`GET /doc`) the reader relies on.
 *
 *   npx tsx test/agents/opencode/record-fixtures.ts
 */

const out = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'opencode')

const scenarios: Record<string, Omit<DriveOptions, 'timeoutMs'>> = {
  'turn-completes': { prompt: `${TAGS.complete} Say hello.` },
  'permission-once': { prompt: `${TAGS.bash} Run the marker command.`, onAsk: replyPermission('once') },
  'permission-reject': { prompt: `${TAGS.bash} Run the marker command.`, onAsk: replyPermission('reject') },
  'question-answered': { prompt: `${TAGS.question} Ask me about the color.`, onAsk: answerQuestion([['Blue']]) },
  aborted: {
    prompt: `${TAGS.hang} Write a long essay.`,
    onStreaming: async (sessionId, client) => {
      await client.post(`/session/${sessionId}/abort`, {})
    },
  },
}

/** The OpenAPI paths and schemas the reader and adapter use, kept as recorded. */
const SPEC_PATHS = ['/event', '/session', '/session/status', '/session/{sessionID}/message', '/session/{sessionID}/prompt_async', '/session/{sessionID}/abort', '/permission', '/permission/{requestID}/reply', '/question', '/question/{requestID}/reply', '/question/{requestID}/reject']
const SPEC_SCHEMAS = ['SessionStatus', 'PermissionRequest', 'QuestionRequest', 'QuestionInfo', 'QuestionOption', 'QuestionAnswer', 'AssistantMessage', 'UserMessage', 'TextPart', 'ReasoningPart', 'ToolPart', 'ToolStatePending', 'ToolStateRunning', 'ToolStateCompleted', 'ToolStateError', 'Session', 'EventSessionStatus', 'EventSessionIdle', 'EventSessionError', 'EventMessageUpdated', 'EventMessageRemoved', 'EventMessagePartUpdated', 'EventMessagePartDelta', 'EventMessagePartRemoved', 'EventPermissionAsked', 'EventPermissionReplied', 'EventQuestionAsked', 'EventQuestionReplied', 'EventQuestionRejected', 'MessageAbortedError', 'APIError', 'UnknownError']

async function record(): Promise<void> {
  const rig: OpencodeRig = await startRig()
  let stopped = false
  try {
    for (const [name, options] of Object.entries(scenarios)) {
      const recording = await driveTurn(rig, options)
      const dir = join(out, name)
      rmSync(dir, { recursive: true, force: true })
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'events.jsonl'), recording.events.map((event) => JSON.stringify(event)).join('\n') + '\n')
      writeFileSync(join(dir, 'messages.json'), `${JSON.stringify(recording.messages, null, 2)}\n`)
      if (recording.pending) writeFileSync(join(dir, 'pending.json'), `${JSON.stringify({ sessionId: recording.sessionId, ...recording.pending }, null, 2)}\n`)
      console.log(`${name}: ${recording.events.length} events`)
    }
    const doc = (await rig.client.get('/doc')) as { info?: unknown; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }
    const subset = {
      note: 'Recorded from `opencode serve` 1.18.33 GET /doc by test/agents/opencode/record-fixtures.ts: the paths and schemas chatrail reads.',
      info: doc.info,
      paths: Object.fromEntries(SPEC_PATHS.map((path) => [path, doc.paths[path]])),
      schemas: Object.fromEntries(SPEC_SCHEMAS.map((schema) => [schema, doc.components.schemas[schema]])),
    }
    writeFileSync(join(out, 'openapi-subset.json'), `${JSON.stringify(subset, null, 2)}\n`)
    await rig.server.stop()
    stopped = true
    const db = join(rig.home.dataDir, 'opencode.db')
    if (!existsSync(db)) throw new Error(`no database at ${db}`)
    // The live database keeps megabytes in its WAL (the provider catalog); the fixture is the same
    // data checkpointed and vacuumed by the sqlite3 CLI into one small file.
    const target = join(out, 'opencode.db')
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true })
    copyFileSync(db, target)
    if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${target}-wal`)
    execFileSync('sqlite3', [target, 'PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE; VACUUM;'])
    for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true })
    console.log(`opencode.db: ${readFileSync(target).length} bytes`)
  } finally {
    if (!stopped) await rig.server.stop()
    await rig.close()
  }
}

await record()
