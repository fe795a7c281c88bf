import { defineComponent, h, ref, useId } from 'vue'
import type { PropType, VNodeChild } from 'vue'
import { isSafeUrl } from '../../src/components/safe-url.js'
import type { ComponentAnswer } from '../../src/view/component-key.js'
import { componentLabels } from '../../src/view/component-labels.js'
import { cellText, formSummary, formValuesOf, progressOf, sizeText } from '../../src/view/component-text.js'
import type { FormValues } from '../../src/view/component-text.js'
import type { ComponentLabels } from '../../src/view/component-labels.js'
import type { StandardKey, StandardProps } from '../../src/view/component-props.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The standard catalog's twelve views, with chatrail/react's markup (roles, names, `data-chatrail-*`)
 * so its stylesheet draws them: the ones that ask something send one interaction and, once
 * answered (here, in another tab, before a reload), are disabled and say what was chosen; the ones
 * that show something link only to safe URLs.
 */

type Interact = (event: string, value?: unknown, label?: string) => void
export type StandardView = (props: unknown, answered: ComponentAnswer | undefined, interact: Interact, chat: UseChatSessionReturn) => VNodeChild
type View<K extends StandardKey> = (props: StandardProps<K>, answered: ComponentAnswer | undefined, interact: Interact, chat: UseChatSessionReturn) => VNodeChild

// the chat's own words over the defaults (chat-context.ts's `wordsOf`, not imported: this chunk shares no module with the entry)
const words = (chat: UseChatSessionReturn): ComponentLabels => ({ ...componentLabels, ...chat.labels })
const answeredFlag = (answered: ComponentAnswer | undefined): '' | undefined => (answered ? '' : undefined)
const chosenMark = (chat: UseChatSessionReturn): VNodeChild => h('span', { 'data-chatrail-chosen-mark': '' }, ` · ${words(chat).chosen}`)
const title = (text: string, id?: string): VNodeChild => h('p', { id, 'data-chatrail-component-title': '' }, text)

/** A pressed-state button of a group: disabled once answered, marked when it was the one chosen. */
function choiceButton(label: string, variant: string, chosen: boolean, answered: ComponentAnswer | undefined, disabled: boolean, onClick: () => void, chat: UseChatSessionReturn): VNodeChild {
  return h('button', { key: label, type: 'button', 'data-chatrail-variant': variant, 'data-chatrail-chosen': chosen ? '' : undefined, 'aria-pressed': answered ? String(chosen) : undefined, disabled, onClick }, [label, chosen ? chosenMark(chat) : null])
}

const buttonGroup: View<'button-group'> = (props, answered, interact, chat) =>
  h('div', { role: 'group', 'aria-label': props.label ?? words(chat).options, 'data-chatrail-component': 'button-group', 'data-chatrail-answered': answeredFlag(answered) }, [
    props.label === undefined ? null : title(props.label),
    h('div', { 'data-chatrail-component-buttons': '' }, props.buttons.map((button) =>
      choiceButton(button.label, button.variant ?? 'secondary', answered?.value === button.id, answered, answered !== undefined || button.disabled === true, () => interact('press', button.id, button.label), chat))),
  ])

/** A listbox: one tab stop, ↑/↓ (Home/End) move the active option, Enter or Space chooses it, a click chooses at once. */
const ChoiceList = defineComponent({
  name: 'ChoiceListView',
  props: { view: { type: Object as PropType<{ props: StandardProps<'choice-list'>; answered: ComponentAnswer | undefined; interact: Interact; chat: UseChatSessionReturn }>, required: true } },
  setup(outer) {
    const base = useId()
    const chosenAt = (): number => outer.view.props.choices.findIndex((choice) => choice.id === outer.view.answered?.value)
    const active = ref(Math.max(0, chosenAt()))
    return () => {
      const { props, answered, interact, chat } = outer.view
      const chosenIndex = chosenAt()
      const choose = (index: number): void => {
        const choice = props.choices[index]
        if (choice !== undefined && answered === undefined) interact('select', choice.id, choice.label)
      }
      const onKeydown = (event: KeyboardEvent): void => {
        const last = props.choices.length - 1
        const next = ({ ArrowDown: Math.min(last, active.value + 1), ArrowUp: Math.max(0, active.value - 1), Home: 0, End: last } as Record<string, number>)[event.key]
        if (next !== undefined) { event.preventDefault(); active.value = next; return }
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); choose(active.value) }
      }
      const disabled = answered ? 'true' : undefined
      return h('div', { 'data-chatrail-component': 'choice-list', 'data-chatrail-answered': answeredFlag(answered) }, [
        title(props.prompt ?? words(chat).chooseOne, `${base}-prompt`),
        h('ul', { role: 'listbox', 'aria-labelledby': `${base}-prompt`, 'aria-activedescendant': `${base}-${active.value}`, 'aria-disabled': disabled, tabindex: 0, onKeydown }, props.choices.map((choice, index) =>
          h('li', {
            key: choice.id, id: `${base}-${index}`, role: 'option', 'aria-selected': String(index === chosenIndex), 'aria-disabled': disabled,
            'data-chatrail-active': index === active.value ? '' : undefined, 'data-chatrail-chosen': index === chosenIndex ? '' : undefined,
            onClick: () => { active.value = index; choose(index) },
          }, [
            h('span', { 'data-chatrail-choice-label': '' }, [choice.label, index === chosenIndex ? chosenMark(chat) : null]),
            choice.description === undefined ? null : h('span', { 'data-chatrail-choice-description': '' }, choice.description),
          ]))),
      ])
    }
  },
})

/** Yes / no as two buttons; the first is primary (danger when destructive). */
function twoButtons(answered: ComponentAnswer | undefined, danger: boolean, yes: [string, string, () => void], no: [string, string, () => void], chat: UseChatSessionReturn): VNodeChild {
  return h('div', { 'data-chatrail-component-buttons': '' }, [yes, no].map(([event, label, send], index) =>
    choiceButton(label, index === 0 ? (danger ? 'danger' : 'primary') : 'secondary', answered?.event === event, answered, answered !== undefined, send, chat)))
}

/** An alertdialog in the message flow, not modal: it never takes the focus on its own. Expired once `expiresAt` passed (read when drawn). */
const Decision = defineComponent({
  name: 'DecisionView',
  props: { view: { type: Object as PropType<{ key: 'confirmation' | 'approval-request'; props: StandardProps<'confirmation'> | StandardProps<'approval-request'>; answered: ComponentAnswer | undefined; interact: Interact; chat: UseChatSessionReturn }>, required: true } },
  setup(outer) {
    const base = useId()
    return () => {
      const { key, answered, interact, chat } = outer.view
      const w = words(chat)
      if (key === 'confirmation') {
        const props = outer.view.props as StandardProps<'confirmation'>
        const yes = props.confirmLabel ?? w.confirm
        const no = props.cancelLabel ?? w.cancel
        return h('div', { role: 'alertdialog', 'aria-labelledby': `${base}-t`, 'aria-describedby': props.body ? `${base}-b` : undefined, 'data-chatrail-component': key, 'data-chatrail-answered': answeredFlag(answered) }, [
          title(props.title, `${base}-t`),
          props.body === undefined ? null : h('p', { id: `${base}-b` }, props.body),
          twoButtons(answered, props.destructive === true, ['confirm', yes, () => interact('confirm', undefined, yes)], ['cancel', no, () => interact('cancel', undefined, no)], chat),
        ])
      }
      const props = outer.view.props as StandardProps<'approval-request'>
      const expired = props.expiresAt !== undefined && Date.parse(props.expiresAt) <= Date.now()
      return h('div', { role: 'alertdialog', 'aria-labelledby': `${base}-t`, 'data-chatrail-component': key, 'data-chatrail-answered': answeredFlag(answered) }, [
        title(props.title, `${base}-t`),
        h('p', { 'data-chatrail-approval-name': '' }, props.action.name),
        h('pre', { 'data-chatrail-approval-input': '' }, JSON.stringify(props.action.input, null, 2)),
        expired && answered === undefined
          ? h('p', { 'data-chatrail-component-note': '' }, w.expired)
          : twoButtons(answered, false, ['approve', w.approveAction, () => interact('approve', undefined, w.approvedTitle(props.title))], ['reject', w.rejectAction, () => interact('reject', undefined, w.rejectedTitle(props.title))], chat),
      ])
    }
  },
})

const errorNotice: View<'error-notice'> = (props, answered, interact, chat) =>
  h('div', { role: 'alert', 'data-chatrail-component': 'error-notice', 'data-chatrail-answered': answeredFlag(answered) }, [
    title(props.title),
    h('p', [props.message, props.code === undefined ? null : h('code', ` ${props.code}`)]),
    props.retryable === true
      ? h('button', { type: 'button', disabled: answered !== undefined, onClick: () => interact('retry', undefined, words(chat).retryComponent) }, answered ? words(chat).retried : words(chat).retryComponent)
      : null,
  ])

/** A real `<a>` (middle-click, copy link and the keyboard work), only to a safe URL; an external one opens apart. */
function safeLink(href: string, children: VNodeChild, download?: string): VNodeChild {
  if (!isSafeUrl(href)) return h('span', [children])
  return h('a', { href, download, ...(/^https?:/i.test(href) ? { target: '_blank', rel: 'noopener noreferrer' } : {}) }, [children])
}

const progress: View<'progress'> = (props) => {
  const { percent, text } = progressOf(props.value, props.status)
  return h('div', { 'data-chatrail-component': 'progress', 'data-chatrail-progress-status': props.status ?? 'running' }, [
    h('div', { role: 'progressbar', 'aria-label': props.label, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': percent, 'aria-valuetext': text, 'aria-live': 'polite', 'data-chatrail-progress-track': '' },
      h('span', { 'data-chatrail-progress-bar': '', style: { width: `${percent ?? 0}%` } })),
    h('p', `${props.label}: ${text}`),
  ])
}

const sourceList: View<'source-list'> = (props, _answered, _interact, chat) =>
  h('ul', { role: 'list', 'aria-label': words(chat).sourcesList, 'data-chatrail-component': 'source-list' }, props.sources.map((source, index) =>
    h('li', { key: index }, [safeLink(source.url, source.title), source.snippet === undefined ? null : h('span', { 'data-chatrail-choice-description': '' }, source.snippet)])))

const linkCard: View<'link-card'> = (props) =>
  h('div', { 'data-chatrail-component': 'link-card' }, [safeLink(props.href, h('span', { 'data-chatrail-component-title': '' }, props.title)), props.description === undefined ? null : h('p', props.description)])

const toolCall: View<'tool-call'> = (props, _answered, _interact, chat) =>
  h('div', { role: 'status', 'aria-live': 'polite', 'aria-label': words(chat).toolCallStatus(props.name, props.status), 'data-chatrail-component': 'tool-call', 'data-chatrail-tool-status': props.status }, [
    h('p', { 'data-chatrail-component-title': '' }, [h('code', props.name), ` · ${props.status}`]),
    h('pre', { 'data-chatrail-approval-input': '' }, JSON.stringify(props.args, null, 2)),
    props.result === undefined ? null : h('p', props.result),
  ])

/** A native table in a box that scrolls sideways when wider than the bubble. */
const table: View<'table'> = (props, _answered, _interact, chat) =>
  h('div', { 'data-chatrail-component': 'table', 'data-chatrail-table-scroll': '', tabindex: 0, role: 'region', 'aria-label': props.caption ?? words(chat).table }, h('table', [
    props.caption === undefined ? null : h('caption', props.caption),
    h('thead', h('tr', props.columns.map((column) => h('th', { key: column.key, scope: 'col' }, column.label)))),
    h('tbody', props.rows.map((row, index) => h('tr', { key: index }, props.columns.map((column) => h('td', { key: column.key }, cellText(row[column.key])))))),
  ]))

const fileAttachment: View<'file-attachment'> = (props) => {
  const details = [props.mimeType, props.size === undefined ? undefined : sizeText(props.size)].filter((item) => item !== undefined)
  return h('div', { 'data-chatrail-component': 'file-attachment' }, [safeLink(props.url, props.name, props.name), details.length === 0 ? null : h('span', { 'data-chatrail-choice-description': '' }, ` ${details.join(' · ')}`)])
}

/** A form: labelled native fields (the browser checks required, number and email); Enter or the button submits. */
const Form = defineComponent({
  name: 'FormView',
  props: { view: { type: Object as PropType<{ props: StandardProps<'form'>; answered: ComponentAnswer | undefined; interact: Interact; chat: UseChatSessionReturn }>, required: true } },
  setup(outer) {
    const base = useId()
    return () => {
      const { props, answered, interact, chat } = outer.view
      const w = words(chat)
      const heading = props.title ?? w.form
      const sent = (answered?.value ?? {}) as FormValues
      const onSubmit = (event: Event): void => {
        event.preventDefault()
        const data = new FormData(event.currentTarget as HTMLFormElement)
        const values = formValuesOf(props.fields, (name) => {
          const raw = data.get(name)
          return typeof raw === 'string' ? raw : null
        })
        interact('submit', values, formSummary(heading, props.fields, values))
      }
      return h('form', { 'aria-labelledby': `${base}-t`, 'data-chatrail-component': 'form', 'data-chatrail-answered': answeredFlag(answered), onSubmit }, [
        title(heading, `${base}-t`),
        h('fieldset', { disabled: answered !== undefined }, [
          ...props.fields.map((field) => {
            const id = `${base}-${field.name}`
            const previous = sent[field.name]
            if (field.kind === 'checkbox') return h('label', { key: field.name, 'data-chatrail-field': 'checkbox', for: id }, [h('input', { id, name: field.name, type: 'checkbox', checked: previous === true }), ` ${field.label}`])
            return h('div', { key: field.name, 'data-chatrail-field': field.kind }, [
              h('label', { for: id }, `${field.label}${field.required ? ' *' : ''}`),
              field.kind === 'select'
                ? h('select', { id, name: field.name, required: field.required, value: typeof previous === 'string' ? previous : '' }, [h('option', { value: '' }, w.chooseField), ...(field.options ?? []).map((option) => h('option', { key: option.value, value: option.value }, option.label))])
                : h('input', { id, name: field.name, type: field.kind, required: field.required, value: previous === undefined ? undefined : String(previous) }),
            ])
          }),
          h('button', { type: 'submit', 'data-chatrail-variant': 'primary' }, answered ? w.sent : (props.submitLabel ?? w.submit)),
        ]),
      ])
    }
  },
})

type Views = { [K in StandardKey]: View<K> }

export const STANDARD_VIEWS: Views = {
  'button-group': buttonGroup,
  'choice-list': (props, answered, interact, chat) => h(ChoiceList, { view: { props, answered, interact, chat } }),
  form: (props, answered, interact, chat) => h(Form, { view: { props, answered, interact, chat } }),
  confirmation: (props, answered, interact, chat) => h(Decision, { view: { key: 'confirmation', props, answered, interact, chat } }),
  'approval-request': (props, answered, interact, chat) => h(Decision, { view: { key: 'approval-request', props, answered, interact, chat } }),
  'error-notice': errorNotice,
  progress,
  'source-list': sourceList,
  'link-card': linkCard,
  'tool-call': toolCall,
  table,
  'file-attachment': fileAttachment,
}
