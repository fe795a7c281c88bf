import { Box, Text } from 'ink'
import type { StyledLine } from './terminal-markdown.js'

interface Props {
  /** Lines already wrapped to the width they are shown at (`wrapLines`). */
  lines: readonly StyledLine[]
}

/** Styled lines as Ink text, one `<Text>` per line; Ink does not re-wrap them (they fit already). */
export function MarkdownView({ lines }: Props) {
  return (
    <Box flexDirection="column">
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line.spans.length === 0 ? ' ' : line.spans.map((span, at) => (
            <Text
              key={at}
              bold={span.bold ?? false}
              italic={span.italic ?? false}
              underline={span.underline ?? false}
              strikethrough={span.strikethrough ?? false}
              dimColor={span.dim ?? false}
              {...(span.color === undefined ? {} : { color: span.color })}
            >
              {span.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  )
}
