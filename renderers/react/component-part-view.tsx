import { useRef, useState } from 'react'
import type { ReactNode } from 'react'
import type { ComponentCatalog, ComponentPart } from '../../src/contract/component-part.js'
import type { Message } from '../../src/contract/message.js'
import { sendInteraction } from '../../src/conversation/index.js'
import { answeredInteractions, interactionOf } from '../../src/conversation/interaction-judge.js'
import { ApprovalRequestView, ButtonGroupView, ChoiceListView, ConfirmationView, ErrorNoticeView } from './component-choice-views.js'
import { FileAttachmentView, LinkCardView, ProgressView, SourceListView, TableView, ToolCallView } from './component-display-views.js'
import { FormView } from './component-form-view.js'
import type { ComponentAnswer, ComponentHost } from './component-host.js'
import { checkedProps } from './component-props-check.js'
import type { StandardKey, StandardViewProps } from './component-props-check.js'
import { ComponentFallback } from './component-slot.js'

// Each view reads its own key's props; the table maps a key to its view without a cast per entry.
type StandardViews = { [K in StandardKey]: (props: StandardViewProps<K>) => ReactNode }
const STANDARD_VIEWS: StandardViews = {
  'button-group': ButtonGroupView,
  'choice-list': ChoiceListView,
  form: FormView,
  confirmation: ConfirmationView,
  progress: ProgressView,
  'source-list': SourceListView,
  'link-card': LinkCardView,
  'error-notice': ErrorNoticeView,
  'tool-call': ToolCallView,
  'approval-request': ApprovalRequestView,
  table: TableView,
  'file-attachment': FileAttachmentView,
}

/** Interactions in a history, by `<messageId>:<instanceId>`; computed once per messages array. */
const answersCache = new WeakMap<readonly Message[], ReadonlyMap<string, ComponentAnswer>>()
function answersOf(messages: readonly Message[], catalog: ComponentCatalog | undefined): ReadonlyMap<string, ComponentAnswer> {
  let answers = answersCache.get(messages)
  if (answers === undefined) {
    // the session's own rule: only interactions that stood (an earlier answer showed the component, the registry took the event)
    const answered = answeredInteractions(messages, catalog)
    const found = new Map<string, ComponentAnswer>()
    for (const message of messages) {
      const interaction = interactionOf(message)
      const key = interaction && `${interaction.messageId}:${interaction.instanceId}`
      // the first interaction is the one the session took; a refused repeat does not change it
      if (interaction && key && answered.has(key) && !found.has(key)) found.set(key, { event: interaction.event, ...('value' in interaction ? { value: interaction.value } : {}) })
    }
    answers = found
    answersCache.set(messages, answers)
  }
  return answers
}

interface Props {
  host: ComponentHost
  messageId: string
  part: ComponentPart
}

/**
 * One component part, drawn: checked (`checkedProps`), then the app's view for its key if it gave
 * one, else the standard view, else its fallback summary. Answered once it is in the history's
 * interactions or was just clicked here (so a double click sends one), and then it sends nothing.
 */
export function ComponentPartView({ host, messageId, part }: Props): ReactNode {
  const [clicked, setClicked] = useState<ComponentAnswer | undefined>(undefined)
  // two clicks in one frame both see the render before the first: the ref stops the second
  const sending = useRef(false)
  const catalog = host.chat.session.definition.components
  const checked = checkedProps(part, catalog)
  if (!checked.ok) return <ComponentFallback part={part} />
  const answered = answersOf(host.chat.messages, catalog).get(`${messageId}:${part.instanceId}`) ?? clicked
  const interact = (event: string, value?: unknown, label?: string): void => {
    if (answered !== undefined || sending.current) return
    sending.current = true
    setClicked({ event, ...(value === undefined ? {} : { value }) })
    sendInteraction(host.chat.controller, { messageId, part, event, ...(value === undefined ? {} : { value }), ...(label === undefined ? {} : { label }) })
      // not sent (the chat was busy, the request failed): it may be tried again
      .catch(() => { sending.current = false; setClicked(undefined) })
  }
  const custom = Object.hasOwn(host.views ?? {}, part.componentKey) ? host.views?.[part.componentKey] : undefined
  const key = part.componentKey
  const content = custom !== undefined
    ? custom({ part, props: checked.props, messageId, answered, interact })
    : Object.hasOwn(STANDARD_VIEWS, key)
      ? (STANDARD_VIEWS[key as StandardKey] as (props: StandardViewProps<StandardKey>) => ReactNode)({ props: checked.props as StandardViewProps<StandardKey>['props'], answered, interact })
      : <ComponentFallback part={part} />
  return <div data-chatrail-component-part="" data-chatrail-component-key={key}>{content}</div>
}
