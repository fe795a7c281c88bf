import { Box, Text } from 'ink'
import type { Message } from '../../src/contract/message.js'
import { terminalText } from '../../src/contract/terminal-text.js'

interface Props {
  message: Message
  /** How the reply was decided, shown dim after the speaker (`deterministic · greet`). */
  label?: string
  /** The user message was edited after it was first printed. */
  edited?: boolean
  /** Tool calls not to list: agent dialogs, shown as their Q→A lines instead. */
  hiddenToolIds?: readonly string[]
}

const speakers: Record<Message['role'], { name: string; color: string }> = {
  user: { name: 'you', color: 'cyan' },
  assistant: { name: 'bot', color: 'green' },
  system: { name: 'system', color: 'magenta' },
  tool: { name: 'tool', color: 'yellow' },
}

/**
 * One chat message: the speaker line, then the text. A streaming reply ends in a cursor block.
 * Text from the model or an agent's files is shown with its control characters as symbols, so it
 * cannot send the terminal commands (a title, a screen clear, a clipboard write).
 */
export function MessageView({ message, label, edited = false, hiddenToolIds = [] }: Props) {
  const speaker = speakers[message.role]
  const streaming = message.status === 'streaming'
  const toolCalls = (message.toolCalls ?? []).filter((call) => !hiddenToolIds.includes(call.id))
  const empty = message.content === '' && toolCalls.length === 0
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text>
        <Text bold color={speaker.color}>{speaker.name}</Text>
        {edited ? <Text dimColor> (edited)</Text> : null}
        {label === undefined ? null : <Text dimColor> · {terminalText(label, { singleLine: true })}</Text>}
        {message.status === 'error' ? <Text color="red"> · error</Text> : null}
      </Text>
      {empty && !streaming ? <Text dimColor>{message.status === 'error' ? '(no reply)' : '(stopped before any text)'}</Text> : null}
      {message.content === '' ? null : (
        <Text color={message.status === 'error' ? 'red' : undefined}>
          {terminalText(message.content)}
          {streaming ? '▍' : ''}
        </Text>
      )}
      {streaming && message.content === '' ? <Text dimColor>…</Text> : null}
      {toolCalls.map((call) => (
        <Text key={call.id} dimColor>
          ⚙ {terminalText(call.name, { singleLine: true })} ({call.status})
        </Text>
      ))}
    </Box>
  )
}
