import { createRoot } from 'react-dom/client'
import '../../../renderers/react/styles.css'
import { RemoteChatSession, serverSideAgent } from '../../../renderers/react/remote.js'
import { serveApprovals } from '../../../renderers/serve-page/approval-views.js'
import { PendingApprovals } from '../../../renderers/react/pending-approvals.js'
import { createRefundDesk } from '../../../examples/refund-desk/definition.js'

// The page of the approval browser test: the refund desk in remote mode, its approval requests
// bound to their records through the server's endpoints with the serve page's own views, and the
// records no message shows in <PendingApprovals>, as the serve page does.
const conversationId = new URLSearchParams(location.search).get('c') ?? 'approvals-1'
const remote = { api: '/api/chat', conversationId }
// the page reads the definition's states and routes; every route runs on the server
const { definition } = createRefundDesk({ refund: () => undefined, capabilities: () => [] })
const root = document.getElementById('root')
if (root === null) throw new Error('approval page: no #root element')
const approvals = serveApprovals(remote)
createRoot(root).render(
  <RemoteChatSession definition={{ ...definition, chat: { adapter: serverSideAgent } }} remote={remote} componentViews={approvals.views}>
    <PendingApprovals source={approvals.source} />
  </RemoteChatSession>,
)
