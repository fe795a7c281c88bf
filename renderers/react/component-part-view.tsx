import { useSyncExternalStore } from 'react'
import type { ReactNode } from 'react'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { componentKeyOf } from '../../src/view/component-key.js'
import { ApprovalRequestView, ButtonGroupView, ChoiceListView, ConfirmationView, ErrorNoticeView } from './component-choice-views.js'
import { FileAttachmentView, LinkCardView, ProgressView, SourceListView, TableView, ToolCallView } from './component-display-views.js'
import { FormView } from './component-form-view.js'
import type { ComponentHost } from './component-host.js'
import { checkedProps } from '../../src/view/component-props.js'
import type { StandardKey, StandardViewProps } from '../../src/view/component-props.js'
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

interface Props {
  host: ComponentHost
  messageId: string
  part: ComponentPart
}

/**
 * One component part, drawn: checked (`checkedProps`), then the app's view for its key if it gave
 * one, else the standard view, else its fallback summary. Whether it is answered and what a click
 * sends are the view's (chatrail/view `componentAnswers`, `interact`: at most once, in history or
 * in flight, whatever the clicks); this only draws it.
 */
export function ComponentPartView({ host, messageId, part }: Props): ReactNode {
  const { view } = host.chat
  const answers = useSyncExternalStore(view.subscribe, () => view.getSnapshot().componentAnswers, () => view.getSnapshot().componentAnswers)
  const checked = checkedProps(part, host.chat.session.definition.components)
  if (!checked.ok) return <ComponentFallback part={part} />
  const answered = answers.get(componentKeyOf(messageId, part.instanceId))
  // a send that failed (the chat busy, the request refused) frees the component again: nothing to report here
  const interact = (event: string, value?: unknown, label?: string): void => { void view.interact(messageId, part, event, value, label).catch(() => undefined) }
  const custom = Object.hasOwn(host.views ?? {}, part.componentKey) ? host.views?.[part.componentKey] : undefined
  const key = part.componentKey
  const content = custom !== undefined
    ? custom({ part, props: checked.props, messageId, answered, interact })
    : Object.hasOwn(STANDARD_VIEWS, key)
      ? (STANDARD_VIEWS[key as StandardKey] as (props: StandardViewProps<StandardKey>) => ReactNode)({ props: checked.props as StandardViewProps<StandardKey>['props'], answered, interact })
      : <ComponentFallback part={part} />
  return <div data-chatrail-component-part="" data-chatrail-component-key={key}>{content}</div>
}
