import { mount } from 'svelte'
import '../../../renderers/react/styles.css'
import { ChatSession } from '../../../renderers/svelte/index.js'
import { EVENT_LABELS, STATE_LABELS, scenarioPage } from '../scenario-app/page.js'

// The Svelte mount of the binding scenario suite: <ChatSession> over the page's definition, with
// `remote` in remote mode (every turn on the chatrail server at /api/chat).
const page = scenarioPage()
const target = document.getElementById('root')
if (target === null) throw new Error('scenario page: no #root element')
const props = { definition: page.definition, title: page.title, stateLabels: STATE_LABELS, eventLabels: EVENT_LABELS }
mount(ChatSession, { target, props: page.mode === 'remote' ? { ...props, remote: page.remote } : props })
