import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createChatReader, readChat as readClaudeChat } from '../../src/agents/claude-code/index.js'
import { createRolloutTail, readChat as readCodexChat } from '../../src/agents/codex/index.js'
import { describeReaderContract } from '../../src/testing/vitest.js'

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures')
const lines = (path: string): string[] => readFileSync(join(fixtures, path), 'utf8').split('\n').filter((line) => line !== '')

// The resume recording: two turns, a tool run, and non-ASCII text (café ✓) for splits inside a character.
describeReaderContract('codex', {
  readChat: (args) => readCodexChat(args),
  openTail: (path) => createRolloutTail(path),
  sampleLines: lines('codex/resume.rollout.jsonl'),
})

// A recorded AskUserQuestion answered in the interactive CLI: a dialog with its outcome, and prose.
const claudeDir = join(fixtures, 'claude-code/question-answered')
const claudeTranscript = readdirSync(claudeDir).find((name) => name.endsWith('.jsonl')) ?? 'missing.jsonl'
describeReaderContract('claude-code', {
  readChat: (args) => readClaudeChat(args),
  openTail: (path) => createChatReader({ runId: 'contract-run', runtimeDir: '', transcriptPath: path }),
  sampleLines: lines(`claude-code/question-answered/${claudeTranscript}`),
})
