import { Box, Static } from 'ink'
import type { Message } from '../../src/contract/message.js'
import { MessageView } from './message-view.js'
import type { PrintedEntry } from './printed-log.js'

interface Props {
  /** Settled messages, append-only: `<Static>` prints each once and never redraws it. */
  printed: readonly PrintedEntry[]
  /** The reply being streamed, redrawn on every chunk below the printed log. */
  live?: Message
}

/** The conversation: the printed log in `<Static>`, then the live reply. */
export function Transcript({ printed, live }: Props) {
  return (
    <>
      <Static items={[...printed]}>
        {(entry) => (
          <Box key={entry.key}>
            <MessageView
              message={entry.message}
              edited={entry.edited}
              {...(entry.label === undefined ? {} : { label: entry.label })}
            />
          </Box>
        )}
      </Static>
      {live === undefined ? null : <MessageView message={live} />}
    </>
  )
}
