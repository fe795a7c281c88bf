import { Box, Text, useStdout } from 'ink'
import { useMemo } from 'react'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { terminalText } from '../../src/contract/terminal-text.js'
import { MarkdownView } from './markdown-view.js'
import { markdownLines, wrapLines } from './terminal-markdown.js'

/**
 * A component part in the transcript, as text: a table laid out like a markdown table (fitted to
 * the terminal's width by the markdown code), every other component as its fallback summary (a
 * choice list or a button group also gets a picker below, `<ComponentPicker>`). A part whose props
 * are not a table's shape shows its summary too: one rule in every renderer.
 */

interface TableShape {
  caption?: string
  columns: { key: string; label: string }[]
  rows: Record<string, unknown>[]
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function tableOf(props: unknown): TableShape | undefined {
  if (!isRecord(props) || !Array.isArray(props.columns) || !Array.isArray(props.rows) || props.columns.length === 0) return undefined
  const columns = props.columns.filter((column): column is { key: string; label: string } => isRecord(column) && typeof column.key === 'string' && typeof column.label === 'string')
  if (columns.length !== props.columns.length || !props.rows.every(isRecord)) return undefined
  return { ...(typeof props.caption === 'string' ? { caption: props.caption } : {}), columns, rows: props.rows as Record<string, unknown>[] }
}

/** A cell as markdown table text: one line, its pipes escaped. */
function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)
  return text.replace(/[\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|')
}

export function tableMarkdown(table: TableShape): string {
  const row = (cells: string[]): string => `| ${cells.join(' | ')} |`
  return [
    row(table.columns.map((column) => cell(column.label))),
    row(table.columns.map(() => '---')),
    ...table.rows.map((values) => row(table.columns.map((column) => cell(values[column.key])))),
  ].join('\n')
}

export function ComponentText({ part }: { part: ComponentPart }) {
  const { stdout } = useStdout()
  const columns = stdout.columns > 0 ? stdout.columns : 80
  const laid = useMemo(() => {
    const table = part.componentKey === 'table' ? tableOf(part.props) : undefined
    return table === undefined ? undefined : { table, lines: wrapLines(markdownLines(tableMarkdown(table)), columns) }
  }, [part, columns])
  if (laid === undefined) return <Text>{terminalText(part.fallback.summary)}</Text>
  const { table, lines } = laid
  return (
    <Box flexDirection="column">
      {table.caption === undefined ? null : <Text bold>{terminalText(table.caption, { singleLine: true })}</Text>}
      <MarkdownView lines={lines} />
    </Box>
  )
}
