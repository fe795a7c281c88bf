/**
 * The serve page's own words, around the chat (whose words are chatrail/react's `ChatLabels`, in
 * English: the page passes no `labels`). One object, as the chat's, so a translation has one place.
 */
export const pageLabels = {
  newConversation: 'New conversation',
  loading: 'Loading…',
  chatOf: (name: string): string => `${name} chat`,
  placeholderWithCommand: (command: string): string => `Type a message, or ${command}`,
  needsToken: 'This server needs a token: open the address it printed, ending in #token=<secret>.',
  serverAnswered: (status: number, path: string): string => `The server answered ${status} for ${path}.`,
}
