import { Box, Text } from 'ink'

interface Props {
  input: string
  /** Where the cursor stands, in code points. @default the end of the input */
  cursor?: number
  streaming: boolean
  /** The composer holds an edit of the last user message; Enter resends it. */
  editing: boolean
  /** A pending dialog whose picker was closed: the composer says how to reopen it. */
  dialogClosed?: boolean
}

/** The input line with its cursor, and a one-line key hint that follows what the keys would do now. */
export function Composer({ input, cursor, streaming, editing, dialogClosed = false }: Props) {
  const chars = [...input]
  const at = Math.max(0, Math.min(cursor ?? chars.length, chars.length))
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={editing ? 'yellow' : 'cyan'}>{editing ? 'edit › ' : '› '}</Text>
        {chars.slice(0, at).join('')}
        <Text inverse>{chars[at] ?? ' '}</Text>
        {chars.slice(at + 1).join('')}
      </Text>
      <Text dimColor>{hint(streaming, editing, dialogClosed)}</Text>
    </Box>
  )
}

function hint(streaming: boolean, editing: boolean, dialogClosed: boolean): string {
  if (dialogClosed) return `Tab answer the agent · ${streaming ? 'Esc stop the turn' : 'Enter send'} · Ctrl+C quit`
  if (streaming) return 'streaming… Esc stop · Enter sends anyway'
  if (editing) return 'editing your last message · Enter resend · Esc cancel'
  return 'Enter send · Esc stop · ↑ edit last · Ctrl+R retry · Ctrl+G regenerate · Ctrl+C quit'
}
