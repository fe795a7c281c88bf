// The message UI chunk of chatrail/svelte (as chatrail/react's): what every chat shows but not on
// its first paint, loaded by `<MessageList>` as it mounts (kit.ts's `messageUI`): the welcome's
// chips, the event bar, the error banner, a message's actions and its edit box, a reply's tool
// cards, its "Thinking" and its sources, and "Jump to latest".
export { default as WelcomeContent } from './WelcomeContent.svelte'
export { default as EventButtonsContent } from './EventButtonsContent.svelte'
export { default as ErrorBannerContent } from './ErrorBannerContent.svelte'
export { default as MessageActions } from './MessageActions.svelte'
export { default as MessageEdit } from './MessageEdit.svelte'
export { default as ReplyEnd } from './ReplyEnd.svelte'
export { default as ListEnd } from './ListEnd.svelte'
