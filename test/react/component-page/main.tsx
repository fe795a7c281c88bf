import { createRoot } from 'react-dom/client'
import '../../../renderers/react/styles.css'
import { RemoteChatSession, serverSideAgent } from '../../../renderers/react/remote.js'
import { componentDefinition } from './component-definition.js'

// The page of the component browser test: <RemoteChatSession> against the handler at /api/chat.
const conversationId = new URLSearchParams(location.search).get('c') ?? 'components-1'
const root = document.getElementById('root')
if (root === null) throw new Error('component page: no #root element')
createRoot(root).render(<RemoteChatSession definition={componentDefinition(serverSideAgent, { page: true })} remote={{ api: '/api/chat', conversationId }} />)
