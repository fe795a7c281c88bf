import { Text } from 'ink'
import type { EventShortcut } from './shortcut-events.js'

interface Props {
  /** The events a key can send (see `shortcutEvents`), in order; the first nine get Alt+1…Alt+9. */
  events: readonly EventShortcut[]
  /** The conversation reached a final state: the line says so (its keys, e.g. Start over, follow). */
  ended?: boolean
}

/** Events as numbered shortcuts with their labels (Alt+digit, so digits stay typeable). */
export function EventShortcuts({ events, ended = false }: Props) {
  if (events.length === 0 && !ended) return null
  return (
    <Text>
      <Text dimColor>{ended ? 'conversation ended' : 'events'}</Text>
      {events.slice(0, 9).map((shortcut, index) => (
        <Text key={shortcut.uiEvent}>
          {'  '}
          <Text color="yellow">Alt+{index + 1}</Text> {shortcut.label}
        </Text>
      ))}
    </Text>
  )
}
