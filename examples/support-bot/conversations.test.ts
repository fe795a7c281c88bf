import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
// In an app: import { defineConversationTests } from 'chatrail/testing/vitest'
import { defineConversationTests } from '../../src/testing/vitest.js'

// Every *.conv.yaml beside this file: one test per conversation, each also replay-checked
// (deterministic turns must come out the same when regenerated and when re-run later).
defineConversationTests('*.conv.yaml', { cwd: dirname(fileURLToPath(import.meta.url)), replayCheck: true })
