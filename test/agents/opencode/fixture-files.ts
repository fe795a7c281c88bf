import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { OpencodeEvent } from '../../../src/agents/opencode/sse-parser.js'

/** The recordings of test/agents/opencode/record-fixtures.ts (real `opencode serve` 1.18.33). */

export const OPENCODE_FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/opencode')
export const SCENARIOS = ['turn-completes', 'permission-once', 'permission-reject', 'question-answered', 'aborted'] as const
export type Scenario = (typeof SCENARIOS)[number]

export const eventsPath = (scenario: Scenario): string => join(OPENCODE_FIXTURES, scenario, 'events.jsonl')
export const eventLines = (scenario: Scenario): string[] => readFileSync(eventsPath(scenario), 'utf8').split('\n').filter((line) => line !== '')
export const events = (scenario: Scenario): OpencodeEvent[] => eventLines(scenario).map((line) => JSON.parse(line) as OpencodeEvent)
export const messagesJson = (scenario: Scenario): unknown[] => JSON.parse(readFileSync(join(OPENCODE_FIXTURES, scenario, 'messages.json'), 'utf8')) as unknown[]

export interface PendingFixture {
  sessionId: string
  messages: unknown[]
  status: Record<string, unknown>
  permissions: unknown[]
  questions: unknown[]
}

export const pendingJson = (scenario: Scenario): PendingFixture => JSON.parse(readFileSync(join(OPENCODE_FIXTURES, scenario, 'pending.json'), 'utf8')) as PendingFixture
