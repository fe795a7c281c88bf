import { Box, Text, useStdout } from 'ink'
import { memo, useMemo, useRef } from 'react'
import type { Message } from '../../src/contract/message.js'
import { terminalText } from '../../src/contract/terminal-text.js'
import { isComponentPart } from '../../src/contract/component-chunk.js'
import { ComponentText } from './component-text.js'
import { failureLine } from './failure-line.js'
import { MarkdownView } from './markdown-view.js'
import { markdownBlocks, markdownLines, wrapLines, type StyledLine } from './terminal-markdown.js'

interface Props {
  message: Message
  /** How the reply was decided, shown dim after the speaker (`deterministic · greet`). */
  label?: string
  /** The user message was edited after it was first printed. */
  edited?: boolean
  /** Printed again because the user switched to this version (`version 1/2`). */
  version?: string
  /** Tool calls not to list: agent dialogs, shown as their Q→A lines instead. */
  hiddenToolIds?: readonly string[]
  /** A failed reply's error line (`failureLine`), shown red on its own line under the reply. */
  failure?: string
}

const speakers: Record<Message['role'], { name: string; color: string }> = {
  user: { name: 'you', color: 'cyan' },
  assistant: { name: 'bot', color: 'green' },
  system: { name: 'system', color: 'magenta' },
  tool: { name: 'tool', color: 'yellow' },
}

/**
 * One chat message: the speaker line, then the text. A reply (assistant or system) is markdown:
 * headings, emphasis, lists, tables fitted to the terminal's width and code under its language,
 * laid out anew on each chunk while it streams (only the live reply redraws; printed ones never
 * do). What the user typed is shown as typed. A streaming reply ends in a cursor block. A failed
 * reply keeps its partial text as a reply and ends in its error, red, on a line of its own.
 * Text from the model or an agent's files is shown with its control characters as symbols, so it
 * cannot send the terminal commands (a title, a screen clear, a clipboard write).
 */
export function MessageView({ message, label, edited = false, version, hiddenToolIds = [], failure }: Props) {
  const speaker = speakers[message.role]
  const streaming = message.status === 'streaming'
  const toolCalls = (message.toolCalls ?? []).filter((call) => !hiddenToolIds.includes(call.id))
  const empty = message.content === '' && toolCalls.length === 0
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text>
        <Text bold color={speaker.color}>{speaker.name}</Text>
        {edited ? <Text dimColor> (edited)</Text> : null}
        {version === undefined ? null : <Text dimColor> ({version})</Text>}
        {label === undefined ? null : <Text dimColor> · {terminalText(label, { singleLine: true })}</Text>}
        {message.status === 'error' ? <Text color="red"> · error</Text> : null}
      </Text>
      {empty && !streaming ? <Text dimColor>{message.status === 'error' ? '(no reply)' : '(stopped before any text)'}</Text> : null}
      {message.content === '' ? null : message.role === 'user' || message.role === 'tool' ? (
        <Text>
          {terminalText(message.content)}
          {streaming ? '▍' : ''}
        </Text>
      ) : (message.parts ?? []).some(isComponentPart) ? (
        <AnswerParts message={message} streaming={streaming} />
      ) : (
        <ReplyMarkdown text={message.content} streaming={streaming} />
      )}
      {streaming && message.content === '' ? <Text dimColor>…</Text> : null}
      {toolCalls.map((call) => (
        <Text key={call.id} dimColor>
          ⚙ {terminalText(call.name, { singleLine: true })} ({call.status})
        </Text>
      ))}
      {message.status === 'error' ? <Text color="red">✗ {failure ?? failureLine(message)}</Text> : null}
    </Box>
  )
}

/** An answer with components: its parts in order, text as markdown, each component as text (`<ComponentText>`). */
function AnswerParts({ message, streaming }: { message: Message; streaming: boolean }) {
  const parts = message.parts ?? []
  return (
    <Box flexDirection="column">
      {parts.map((part, index) => {
        if (isComponentPart(part)) return <Box key={`c:${part.instanceId}`} marginTop={index === 0 ? 0 : 1}><ComponentText part={part} /></Box>
        if (part.type !== 'text' || part.text.trim() === '') return null
        return <Box key={index} marginTop={index === 0 ? 0 : 1}><ReplyMarkdown text={part.text.trim()} streaming={streaming && index === parts.length - 1} /></Box>
      })}
    </Box>
  )
}

/**
 * A reply's markdown at the terminal's width (80 when it is not a terminal), the cursor after its
 * last line while it streams. Laid out block by block, each block's lines kept while the width
 * stays: a chunk re-parses only the block it grows (laying out the whole reply on every chunk
 * was quadratic: 1.3 s of CPU for the demo's 190-chunk reply).
 */
function ReplyMarkdown({ text, streaming }: { text: string; streaming: boolean }) {
  const { stdout } = useStdout()
  const columns = stdout.columns > 0 ? stdout.columns : 80
  const cache = useRef<{ columns: number; blocks: Map<string, StyledLine[]> }>({ columns, blocks: new Map() })
  const blocks = useMemo(() => {
    if (cache.current.columns !== columns) cache.current = { columns, blocks: new Map() }
    const known = cache.current.blocks
    const next = new Map<string, StyledLine[]>()
    const laidOut: StyledLine[][] = []
    for (const block of markdownBlocks(text)) {
      const laid = known.get(block) ?? next.get(block) ?? wrapLines(markdownLines(block), columns)
      next.set(block, laid)
      laidOut.push(laid)
    }
    // only the blocks of this text stay: the cache never outgrows the reply
    cache.current.blocks = next
    if (!streaming) return laidOut
    const last = laidOut.at(-1)
    const lastLine = last?.at(-1)
    const cursor = { spans: [{ text: '▍' }], indent: 0 }
    if (last === undefined || lastLine === undefined) return [[cursor]]
    return [...laidOut.slice(0, -1), [...last.slice(0, -1), { ...lastLine, spans: [...lastLine.spans, { text: '▍' }] }]]
  }, [text, streaming, columns])
  // a finished block keeps its lines array (from the cache), so its memoized view does not redraw
  return (
    <Box flexDirection="column">
      {blocks.map((lines, index) => (
        <Box key={index} flexDirection="column" marginTop={index === 0 ? 0 : 1}>
          <BlockView lines={lines} />
        </Box>
      ))}
    </Box>
  )
}

const BlockView = memo(function BlockView({ lines }: { lines: readonly StyledLine[] }) {
  return <MarkdownView lines={lines} />
})
