import { mount } from 'svelte'
import { ChatSession, Composer, createChatSession } from '../../renderers/svelte/index.js'
import { PendingApprovals } from '../../renderers/svelte/actions.js'
import { serverSideAgent } from '../../src/view/index.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'

// chatrail/svelte's components are exported typed (`Component<Props>`): `mount` checks their props
// as an app's TypeScript does, with no declarations of the `.svelte` files.
declare const target: HTMLElement

// a definition with a context of its own, local or against a server
mount(ChatSession, { target, props: { definition: createSupportBot(), title: 'Support' } })
mount(ChatSession, { target, props: { definition: createSupportBot(serverSideAgent), remote: { api: '/api/chat', conversationId: 'c-1' } } })

// a store made by the app, handed to the whole chat or to a part
const chat = createChatSession(createSupportBot(), { stateLabels: { collecting: 'Order lookup' } })
mount(ChatSession, { target, props: { chat, class: 'chatrail-dark' } })
mount(Composer, { target, props: { chat, placeholder: 'Ask away' } })
mount(PendingApprovals, { target, props: { chat } })

// @ts-expect-error: neither a store nor a definition
mount(ChatSession, { target, props: { title: 'Nothing to show' } })
// @ts-expect-error: a store and a definition at once
mount(ChatSession, { target, props: { chat, definition: createSupportBot() } })
// @ts-expect-error: remote needs the definition (its routes and states)
mount(ChatSession, { target, props: { chat, remote: { api: '/api/chat', conversationId: 'c-1' } } })
