import type { SessionRow } from './session-rows.js'

/**
 * The sessions table as aligned text columns (agent, project, state, what it waits for, last
 * activity), shared by `chatrail sessions` and its Ink watch view, which colors the same lines.
 * Pure.
 */

export const SESSION_COLUMNS = ['AGENT', 'PROJECT', 'STATE', 'WAITING FOR', 'LAST ACTIVITY'] as const

/** Pure. The header line, then one line per row, columns padded to their widest cell. */
export function sessionTableLines(rows: readonly SessionRow[]): string[] {
  const cells = rows.map((row) => [row.agent, row.project, row.state, row.waitingFor, row.lastActivity])
  const widths = SESSION_COLUMNS.map((title, column) => Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)))
  const format = (line: readonly string[]): string =>
    line
      .map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd()
  return [format(SESSION_COLUMNS), ...cells.map(format)]
}
