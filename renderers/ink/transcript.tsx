import { Box, Static, Text } from 'ink'
import type { Message } from '../../src/contract/message.js'
import { DialogSummary } from './dialog-summary.js'
import { MessageView } from './message-view.js'
import type { PrintedEntry } from './printed-log.js'

interface Props {
  /** Settled messages and answered dialogs, append-only: `<Static>` prints each once and never redraws it. */
  printed: readonly PrintedEntry[]
  /** The reply being streamed, redrawn on every chunk below the printed log. */
  live?: Message
  /** Lines printed above the log, once (a banner); printed again with it after a resize. */
  header?: string
  /** Changing it prints the whole log again (after the screen was cleared on a resize). */
  printKey?: number
  /** Tool calls of the live reply not to list (agent dialogs). */
  liveHiddenToolIds?: readonly string[]
}

type StaticItem = PrintedEntry | { kind: 'header'; key: string; text: string }

/** The conversation: the printed log in `<Static>`, then the live reply. */
export function Transcript({ printed, live, header, printKey = 0, liveHiddenToolIds = [] }: Props) {
  const items: StaticItem[] = header === undefined ? [...printed] : [{ kind: 'header', key: 'header', text: header }, ...printed]
  return (
    <>
      <Static key={printKey} items={items}>
        {(entry) => (
          <Box key={entry.key}>
            {entry.kind === 'header' ? <Box marginBottom={1}><Text>{entry.text}</Text></Box> : entry.kind === 'dialog' ? <DialogSummary dialog={entry.dialog} /> : (
              <MessageView
                message={entry.message}
                edited={entry.edited}
                {...(entry.version === undefined ? {} : { version: entry.version })}
                {...(entry.label === undefined ? {} : { label: entry.label })}
                {...(entry.dialogToolIds === undefined ? {} : { hiddenToolIds: entry.dialogToolIds })}
                {...(entry.failure === undefined ? {} : { failure: entry.failure })}
              />
            )}
          </Box>
        )}
      </Static>
      {live === undefined ? null : <MessageView message={live} hiddenToolIds={liveHiddenToolIds} />}
    </>
  )
}
