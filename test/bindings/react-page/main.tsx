import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../../../renderers/react/styles.css'
import { ChatSession } from '../../../renderers/react/index.js'
import { RemoteChatSession } from '../../../renderers/react/remote.js'
import { EVENT_LABELS, STATE_LABELS, scenarioPage } from '../scenario-app/page.js'

// The React mount of the binding scenario suite: <ChatSession> (local) or <RemoteChatSession>.
const page = scenarioPage()
const root = document.getElementById('root')
if (root === null) throw new Error('scenario page: no #root element')
const props = { definition: page.definition, title: page.title, stateLabels: STATE_LABELS, eventLabels: EVENT_LABELS }
createRoot(root).render(
  <StrictMode>
    {page.mode === 'remote' ? <RemoteChatSession {...props} remote={page.remote} /> : <ChatSession {...props} />}
  </StrictMode>,
)
