import { Box, Text } from 'ink'

interface Props {
  input: string
  streaming: boolean
  /** The composer holds an edit of the last user message; Enter resends it. */
  editing: boolean
  /** A pending dialog whose picker was closed: the composer says how to reopen it. */
  dialogClosed?: boolean
}

/** The input line and a one-line key hint that follows what the keys would do now. */
export function Composer({ input, streaming, editing, dialogClosed = false }: Props) {
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={editing ? 'yellow' : 'cyan'}>{editing ? 'edit › ' : '› '}</Text>
        {input}
        <Text inverse> </Text>
      </Text>
      <Text dimColor>{hint(streaming, editing, dialogClosed)}</Text>
    </Box>
  )
}

function hint(streaming: boolean, editing: boolean, dialogClosed: boolean): string {
  if (streaming) return 'streaming… Esc stop · Enter sends anyway'
  if (editing) return 'editing your last message · Enter resend · Esc cancel'
  const dialog = dialogClosed ? 'Tab answer the agent · ' : ''
  return `${dialog}Enter send · Esc stop · ↑ edit last · Ctrl+R retry · Ctrl+G regenerate · Ctrl+C quit`
}
