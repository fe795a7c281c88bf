import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** Absolute paths of the test definitions, for `definition.module` in generated files. */
export const shopBotModule = resolve('test/testing/fixtures/shop-bot.ts')
export const clockBotModule = resolve('test/testing/fixtures/clock-bot.ts')

/**
 * A temporary directory of conversation files written from `files` (name → lines). Failing files
 * are generated rather than committed, so `chatrail test` at the repo root never finds them.
 */
export function conversationDir(files: Record<string, readonly string[]>): string {
  const directory = mkdtempSync(join(tmpdir(), 'chatrail-conv-'))
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(directory, name), `${lines.join('\n')}\n`)
  return directory
}
