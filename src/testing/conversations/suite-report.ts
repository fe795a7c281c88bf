import { isAbsolute, relative } from 'node:path'
import type { ConversationFailure, ConversationFileResult, ConversationResult } from './run-file.js'
import type { ConversationSuiteResult } from './run-suite.js'
import { formatCoverage, formatPercent } from './coverage.js'
import { formatTraceLine } from '../trace-line.js'

/**
 * The human report of `chatrail test` and of failing `defineConversationTests` tests: one line
 * per conversation, and under each failure the turn, the place in the file, expected vs actual
 * and the turn's trace. Pure; `cwd` only shortens paths.
 */
export function formatSuiteReport(result: ConversationSuiteResult, options: { cwd?: string; minCoverage?: number } = {}): string {
  const cwd = options.cwd ?? process.cwd()
  const blocks = result.files.map((file) => formatFileResult(file, cwd))
  for (const report of result.coverage ?? []) blocks.push(formatCoverage(report))
  for (const id of result.belowMinCoverage ?? []) {
    const report = result.coverage?.find((entry) => entry.definitionId === id)
    blocks.push(`✗ coverage of ${id} is ${report === undefined ? '?' : formatPercent(report.percent)}, below --min-coverage ${options.minCoverage ?? '?'}%`)
  }
  const { summary } = result
  const parts = [`${summary.passedConversations} passed`, `${summary.failedConversations} failed`]
  if (summary.invalidFiles > 0) parts.push(`${summary.invalidFiles} invalid file${summary.invalidFiles === 1 ? '' : 's'}`)
  blocks.push(`${result.passed ? 'PASS' : 'FAIL'}  conversations: ${parts.join(', ')} (${summary.files} file${summary.files === 1 ? '' : 's'})`)
  return blocks.join('\n\n')
}

/** A path relative to `cwd` when it lies below it, else as given. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path)
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel
}

function formatFileResult(file: ConversationFileResult, cwd: string): string {
  const name = shown(file.file, cwd)
  if (file.issues !== undefined) {
    const lines = file.issues.map((issue) => {
      const head = `    ${shown(issue.file, cwd)}:${issue.line}:${issue.column}  ${issue.message}`
      return issue.hint === undefined ? head : `${head}\n      hint: ${issue.hint}`
    })
    return [`✗ ${name} (invalid)`, ...lines].join('\n')
  }
  const warnings = (file.warnings ?? []).map((issue) => {
    const head = `⚠ ${shown(issue.file, cwd)}:${issue.line}:${issue.column}  ${issue.message}`
    return issue.hint === undefined ? head : `${head}\n    hint: ${issue.hint}`
  })
  return [...warnings, ...file.conversations.map((conversation) => formatConversationResult(conversation, cwd))].join('\n')
}

/** One conversation: `✓ file › name (n turns)`, or `✗` and its failures. */
export function formatConversationResult(result: ConversationResult, cwd: string = process.cwd()): string {
  const name = shown(result.file, cwd)
  const title = `${result.passed ? '✓' : '✗'} ${name} › ${result.name} (${result.turns.length} turn${result.turns.length === 1 ? '' : 's'})`
  if (result.passed) return title
  return [title, ...groupByTurn(result.failures).map((group) => formatFailureGroup(group, name))].join('\n')
}

function groupByTurn(failures: readonly ConversationFailure[]): ConversationFailure[][] {
  const groups: ConversationFailure[][] = []
  for (const failure of failures) {
    const last = groups[groups.length - 1]
    if (last !== undefined && failure.turn !== undefined && last[0]?.turn === failure.turn) last.push(failure)
    else groups.push([failure])
  }
  return groups
}

function formatFailureGroup(group: readonly ConversationFailure[], file: string): string {
  const [first] = group
  if (first === undefined) return ''
  const head = first.turn === undefined ? `    ${file}:${first.line}:${first.column}` : `    turn ${first.turn} · ${first.label ?? ''} · ${file}:${first.line}:${first.column}`
  const lines = group.flatMap((failure) => failure.message.split('\n').map((line) => `      ${line}`))
  const traces = first.traces === undefined ? [] : first.traces.length === 0 ? ['      trace: (none)'] : first.traces.map((trace) => `      trace: ${formatTraceLine(trace)}`)
  return [head, ...lines, ...traces].join('\n')
}
