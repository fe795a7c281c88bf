import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { onTestFinished } from 'vitest'

/** Absolute paths of the test definitions, for `definition.module` in generated files. */
export const shopBotModule = resolve('test/testing/fixtures/shop-bot.ts')
export const clockBotModule = resolve('test/testing/fixtures/clock-bot.ts')

/**
 * A temporary directory of conversation files written from `files` (name → lines), removed when
 * the calling test finishes. Failing files are generated rather than committed, so `chatrail test`
 * at the repo root never finds them. Call it inside a test; a hook uses writeConversationDir.
 */
export function conversationDir(files: Record<string, readonly string[]>): string {
  const directory = writeConversationDir(files)
  // Earlier runs left one directory per call behind in /tmp (517 of them): the test removes its own.
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** conversationDir for a beforeAll hook: the caller removes the directory (in its afterAll). */
export function writeConversationDir(files: Record<string, readonly string[]>): string {
  const directory = mkdtempSync(join(tmpdir(), 'chatrail-conv-'))
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(directory, name), `${lines.join('\n')}\n`)
  return directory
}
