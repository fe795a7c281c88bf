import type * as z from 'zod/mini'
import * as schemas from './catalog-schemas.js'
import { defineComponent } from './component-definition.js'
import type { FormValues } from './component-definition.js'

/**
 * The standard catalog: twelve components every chatrail renderer draws (React, the serve page,
 * Ink as text and pickers), with AgentsKit Chat's keys. Each has an accessible role, its events and
 * a fallback that reads well as plain text, since that is what a model and a terminal without the
 * component see.
 */

const list = (items: readonly string[]): string => items.join('; ')

export const buttonGroup = defineComponent({
  key: 'button-group',
  props: schemas.buttonGroupProps,
  events: { press: 'id' },
  accessibility: { role: 'group', keyboard: 'Tab to a button, Enter or Space to press it.' },
  capabilities: ['display', 'selection'],
  fallback: (props) => `${props.label ?? 'Options'}: ${list(props.buttons.filter((button) => !button.disabled).map((button) => button.label))}`,
  checkEvent: (props, _event, value) => (props.buttons.some((button) => button.id === value && !button.disabled) ? undefined : `no enabled button "${String(value)}"`),
})

export const choiceList = defineComponent({
  key: 'choice-list',
  props: schemas.choiceListProps,
  events: { select: 'id' },
  accessibility: { role: 'listbox', keyboard: 'Arrow keys to move, Enter to choose.' },
  capabilities: ['display', 'selection', 'action'],
  fallback: (props) => `${props.prompt ?? 'Choose one'}: ${list(props.choices.map((choice) => (choice.description ? `${choice.label} (${choice.description})` : choice.label)))}`,
  checkEvent: (props, _event, value) => (props.choices.some((choice) => choice.id === value) ? undefined : `no choice "${String(value)}"`),
})

export const form = defineComponent({
  key: 'form',
  props: schemas.formProps,
  events: { submit: 'form' },
  accessibility: { role: 'form', keyboard: 'Tab between fields, Enter to submit.' },
  capabilities: ['display', 'input'],
  fallback: (props) => `${props.title ?? 'A form'} asking for: ${list(props.fields.map((field) => field.label))}`,
  checkEvent: (props, _event, value) => formProblem(props, value as FormValues),
})

function formProblem(props: z.infer<typeof schemas.formProps>, values: FormValues): string | undefined {
  for (const name of Object.keys(values)) if (!props.fields.some((field) => field.name === name)) return `no field "${name}"`
  for (const field of props.fields) {
    const value = values[field.name]
    if (value === undefined || value === '') {
      if (field.required) return `"${field.name}" is required`
      continue
    }
    if (field.kind === 'checkbox' && typeof value !== 'boolean') return `"${field.name}" must be true or false`
    if (field.kind === 'number' && typeof value !== 'number') return `"${field.name}" must be a number`
    if ((field.kind === 'text' || field.kind === 'email' || field.kind === 'select') && typeof value !== 'string') return `"${field.name}" must be text`
    if (field.kind === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value as string)) return `"${field.name}" must be an email address`
    if (field.kind === 'select' && !(field.options ?? []).some((option) => option.value === value)) return `"${field.name}" has no option "${String(value)}"`
  }
  return undefined
}

export const confirmation = defineComponent({
  key: 'confirmation',
  props: schemas.confirmationProps,
  events: { confirm: 'none', cancel: 'none' },
  accessibility: { role: 'alertdialog', keyboard: 'Tab to Confirm or Cancel.' },
  capabilities: ['display', 'action'],
  fallback: (props) => `${props.title}${props.body ? ` — ${props.body}` : ''} (${props.confirmLabel ?? 'Confirm'} / ${props.cancelLabel ?? 'Cancel'})`,
})

export const progress = defineComponent({
  key: 'progress',
  props: schemas.progressProps,
  accessibility: { role: 'progressbar', live: 'polite' },
  capabilities: ['display', 'progress'],
  fallback: (props) => `${props.label}: ${props.status === 'done' ? 'done' : props.status === 'failed' ? 'failed' : props.value === undefined ? 'in progress' : `${Math.round(props.value * 100)}%`}`,
})

export const sourceList = defineComponent({
  key: 'source-list',
  props: schemas.sourceListProps,
  events: { open: 'url' },
  accessibility: { role: 'list' },
  capabilities: ['display', 'navigation'],
  fallback: (props) => `Sources: ${list(props.sources.map((source) => `${source.title} <${source.url}>`))}`,
  checkEvent: (props, _event, value) => (props.sources.some((source) => source.url === value) ? undefined : 'not one of the listed sources'),
})

export const linkCard = defineComponent({
  key: 'link-card',
  props: schemas.linkCardProps,
  events: { open: 'url' },
  accessibility: { role: 'link' },
  capabilities: ['display', 'navigation'],
  fallback: (props) => `${props.title} <${props.href}>${props.description ? ` — ${props.description}` : ''}`,
  checkEvent: (props, _event, value) => (value === props.href ? undefined : 'not the card\'s link'),
})

export const errorNotice = defineComponent({
  key: 'error-notice',
  props: schemas.errorNoticeProps,
  events: { retry: 'none' },
  accessibility: { role: 'alert', live: 'assertive' },
  capabilities: ['display'],
  fallback: (props) => `Error: ${props.title} — ${props.message}${props.code ? ` (${props.code})` : ''}`,
  checkEvent: (props) => (props.retryable ? undefined : 'this error cannot be retried'),
})

export const toolCall = defineComponent({
  key: 'tool-call',
  props: schemas.toolCallProps,
  accessibility: { role: 'status', live: 'polite' },
  capabilities: ['display', 'progress'],
  fallback: (props) => `Tool ${props.name}: ${props.status}${props.result ? ` — ${props.result.slice(0, 200)}` : ''}`,
})

export const approvalRequest = defineComponent({
  key: 'approval-request',
  props: schemas.approvalRequestProps,
  events: { approve: 'none', reject: 'none' },
  accessibility: { role: 'alertdialog', keyboard: 'Tab to Approve or Reject.' },
  capabilities: ['display', 'action'],
  fallback: (props) => `Approval needed: ${props.title} (${props.action.name})`,
})

export const table = defineComponent({
  key: 'table',
  props: schemas.tableProps,
  accessibility: { role: 'table' },
  capabilities: ['display'],
  fallback: (props) => {
    const header = props.columns.map((column) => column.label).join(' | ')
    const rows = props.rows.slice(0, 20).map((row) => props.columns.map((column) => String(row[column.key] ?? '')).join(' | '))
    const more = props.rows.length > 20 ? [`… ${props.rows.length - 20} more rows`] : []
    return [props.caption, header, ...rows, ...more].filter((line) => line !== undefined).join('\n')
  },
})

export const fileAttachment = defineComponent({
  key: 'file-attachment',
  props: schemas.fileAttachmentProps,
  events: { download: 'url' },
  accessibility: { role: 'link' },
  capabilities: ['display', 'download'],
  fallback: (props) => `File: ${props.name} <${props.url}>`,
  checkEvent: (props, _event, value) => (value === props.url ? undefined : 'not the file\'s URL'),
})

/** The twelve, in AgentsKit Chat's order. */
export const standardCatalog = Object.freeze([
  buttonGroup,
  choiceList,
  form,
  confirmation,
  progress,
  sourceList,
  linkCard,
  errorNotice,
  toolCall,
  approvalRequest,
  table,
  fileAttachment,
] as const)

export const STANDARD_COMPONENT_KEYS = Object.freeze(standardCatalog.map((definition) => definition.key))
