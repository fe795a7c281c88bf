import { Text } from 'ink'

interface Props {
  /** The events a key can send (see `shortcutEvents`), in order; the first nine get Alt+1…Alt+9. */
  events: readonly string[]
}

/** Events as numbered shortcuts (Alt+digit, so digits stay typeable). */
export function EventShortcuts({ events }: Props) {
  if (events.length === 0) return null
  return (
    <Text>
      <Text dimColor>events</Text>
      {events.slice(0, 9).map((event, index) => (
        <Text key={event}>
          {'  '}
          <Text color="yellow">Alt+{index + 1}</Text> {event}
        </Text>
      ))}
    </Text>
  )
}
