// The `chatrail/react/remote` entry: chatrail/react against a chatrail server (chatrail/server).
// Its own subpath, so pages that run the session locally never load httpAdapter, and the
// chatrail/react entry stays within its size budget. The parts (<StateBadge>, <EventButtons>,
// <MessageList>, <DialogCard>, <Composer>) come from chatrail/react and take the returned chat.
export { useRemoteChatSession } from './use-remote-chat-session.js'
export { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
export type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
export { RemoteChatSession } from './remote-chat-session.js'
export type { RemoteChatSessionProps } from './remote-chat-session.js'
export { serverSideAgent } from '../../src/view/server-side-agent.js'
