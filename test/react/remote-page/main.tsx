import { createRoot } from 'react-dom/client'
import { RemoteChatSession, serverSideAgent } from '../../../renderers/react/remote.js'
import { remoteDefinition } from './remote-definition.js'

// The page of the remote-mode browser test: <RemoteChatSession> against the handler at /api/chat.
const conversationId = new URLSearchParams(location.search).get('c') ?? 'browser-1'
const root = document.getElementById('root')
if (root === null) throw new Error('remote page: no #root element')
createRoot(root).render(
  <RemoteChatSession definition={remoteDefinition(serverSideAgent)} remote={{ api: '/api/chat', conversationId }} eventLabels={{ cancel: 'Cancel', book_tomorrow: 'Tomorrow' }} />,
)
