import { createApp, h } from 'vue'
import '../../../renderers/react/styles.css'
import { ChatSession } from '../../../renderers/vue/index.js'
import { EVENT_LABELS, STATE_LABELS, scenarioPage } from '../scenario-app/page.js'

// The Vue mount of the binding scenario suite: <ChatSession>, local or (with `remote`) against the server.
const page = scenarioPage()
createApp({
  render: () => h(ChatSession, {
    definition: page.definition,
    title: page.title,
    stateLabels: STATE_LABELS,
    eventLabels: EVENT_LABELS,
    ...(page.mode === 'remote' ? { remote: page.remote } : {}),
  }),
}).mount('#root')
