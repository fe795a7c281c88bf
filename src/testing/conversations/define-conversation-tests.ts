import { relative } from 'node:path'
import { describe, test } from 'vitest'
import { findConversationFiles } from './file-search.js'
import { formatConversationFileError, isConversationFileError } from './file-error.js'
import { readConversationFile } from './file-parse.js'
import type { ConversationFile } from './file-parse.js'
import { runConversationSpec } from './run-file.js'
import { loadDefinition } from './definition-loader.js'
import type { ModuleImporter } from './definition-loader.js'
import type { ChatDefinition, JsonObject } from '../../index.js'
import { formatConversationResult } from './suite-report.js'

export interface ConversationTestsOptions {
  /** Where relative patterns start. Default: `process.cwd()` (vitest's root). */
  cwd?: string
  /** Run the replay check on every conversation. */
  replayCheck?: boolean
  importModule?: ModuleImporter
}

/**
 * Registers one vitest test per conversation, grouped in a `describe` per file. Files are found
 * and parsed while vitest collects (synchronously), so a malformed file becomes one failing test
 * whose message has the file, line and column. A failing conversation's error is the same report
 * `chatrail test` prints: the turn, expected vs actual, the trace.
 */
export function defineConversationTests(patterns: string | readonly string[], options: ConversationTestsOptions = {}): void {
  const cwd = options.cwd ?? process.cwd()
  const files = findConversationFiles(patterns, cwd)
  for (const path of files) {
    const name = relative(cwd, path) || path
    let file: ConversationFile
    try {
      file = readConversationFile(path)
    } catch (error) {
      const message = isConversationFileError(error) ? formatConversationFileError(error) : String(error)
      test(name, () => {
        throw new Error(`invalid conversation file\n${message}`)
      })
      continue
    }
    // Warnings do not fail a test; they are printed once, while vitest collects.
    for (const warning of file.warnings) console.warn(`⚠ ${name}:${warning.line}:${warning.column}  ${warning.message}${warning.hint === undefined ? '' : `\n  hint: ${warning.hint}`}`)
    let definition: Promise<ChatDefinition<JsonObject>> | undefined
    const load = () => (definition ??= loadDefinition(file.definition.module, file.definition.export, options.importModule) as Promise<ChatDefinition<JsonObject>>)
    describe(name, () => {
      for (const spec of file.conversations) {
        test(spec.name, async () => {
          const result = await runConversationSpec(await load(), spec, { replayCheck: options.replayCheck === true })
          if (!result.passed) throw new Error(`\n${formatConversationResult(result, cwd)}`)
        })
      }
    })
  }
}
