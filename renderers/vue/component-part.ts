import { defineAsyncComponent, defineComponent, h } from 'vue'
import type { PropType, VNodeChild } from 'vue'
import type { ComponentPart } from '../../src/contract/component-part.js'
import type { ComponentViewProps } from '../../src/view/component-key.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export type { ComponentViewProps }

/** A view for a component key of your own registry: a render function, e.g. `{ 'order-card': (p) => h(OrderCard, p) }`. */
export type ComponentViews = Readonly<Record<string, (props: ComponentViewProps) => VNodeChild>>

/** What every renderer shows for a component it does not draw: the part's fallback summary. */
export const componentFallback = (part: ComponentPart): VNodeChild =>
  h('p', { 'data-chatrail-component-fallback': '', 'data-chatrail-component-key': part.componentKey }, part.fallback.summary)

const Loading = defineComponent({
  name: 'ComponentPartLoading',
  inheritAttrs: false,
  props: { part: { type: Object as PropType<ComponentPart>, required: true } },
  setup: (props) => () => componentFallback(props.part),
})

const Content = defineAsyncComponent({
  loader: () => import('./component-ui.js').then((ui) => ui.ComponentPartContent),
  loadingComponent: Loading,
  errorComponent: Loading,
  delay: 0,
})

/**
 * One component part of a message: drawn by the component UI chunk (component-ui.ts: the props
 * check, the standard catalog's views, the app's `views`), its fallback summary until the chunk is
 * in or if it failed to load.
 */
export const ComponentPartView = defineComponent({
  name: 'ComponentPartView',
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    messageId: { type: String, required: true },
    part: { type: Object as PropType<ComponentPart>, required: true },
    views: { type: Object as PropType<ComponentViews>, default: undefined },
  },
  setup: (props) => () => h(Content, { ...props, fallback: componentFallback }),
})
