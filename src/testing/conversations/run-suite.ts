import type { ChatDefinition, JsonObject } from '../../index.js'
import { runConversationFile } from './run-file.js'
import type { ConversationFileResult, RunFileOptions } from './run-file.js'
import { computeCoverage } from './coverage.js'
import type { CoverageReport, CoverageRun } from './coverage.js'

export interface ConversationSuiteOptions extends Omit<RunFileOptions, 'onRun'> {
  /** Compute coverage per definition. */
  coverage?: boolean
  /** Fail the suite when a definition's pooled coverage is below this percentage (implies `coverage`). */
  minCoverage?: number
}

export interface ConversationSuiteResult {
  passed: boolean
  files: ConversationFileResult[]
  summary: { files: number; invalidFiles: number; conversations: number; passedConversations: number; failedConversations: number }
  /** One report per definition the files used, in first-use order. */
  coverage?: CoverageReport[]
  /** Definitions below `minCoverage`. */
  belowMinCoverage?: string[]
}

/**
 * Runs conversation files one after another (sessions are cheap; order keeps output stable) and
 * pools coverage by definition. Never throws for a failing or invalid file: it is a result.
 */
export async function runConversationSuite(files: readonly string[], options: ConversationSuiteOptions = {}): Promise<ConversationSuiteResult> {
  const runs = new Map<ChatDefinition<JsonObject>, CoverageRun[]>()
  const onRun = (definition: ChatDefinition<JsonObject>, run: CoverageRun): void => {
    const list = runs.get(definition) ?? []
    list.push(run)
    runs.set(definition, list)
  }
  const results: ConversationFileResult[] = []
  for (const file of files) results.push(await runConversationFile(file, { ...options, onRun }))
  const conversations = results.flatMap((result) => result.conversations)
  const passedConversations = conversations.filter((result) => result.passed).length
  const summary = {
    files: results.length,
    invalidFiles: results.filter((result) => result.issues !== undefined).length,
    conversations: conversations.length,
    passedConversations,
    failedConversations: conversations.length - passedConversations,
  }
  let passed = results.every((result) => result.passed)
  if (options.coverage !== true && options.minCoverage === undefined) return { passed, files: results, summary }
  const coverage = [...runs].map(([definition, list]) => computeCoverage(definition, list))
  const minimum = options.minCoverage
  const belowMinCoverage = minimum === undefined ? [] : coverage.filter((report) => report.percent < minimum).map((report) => report.definitionId)
  if (belowMinCoverage.length > 0) passed = false
  return { passed, files: results, summary, coverage, ...(minimum === undefined ? {} : { belowMinCoverage }) }
}
