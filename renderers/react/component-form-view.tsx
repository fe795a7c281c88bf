import { useId } from 'react'
import type { FormEvent, ReactNode } from 'react'
import { componentLabels } from '../../src/view/component-labels.js'
import type { StandardViewProps } from '../../src/view/component-props.js'
import { useLabels } from './message-ui-context.js'

type Values = Record<string, string | number | boolean>

/** The fields as the `submit` event takes them: numbers as numbers, checkboxes as booleans, empty fields left out. */
function valuesOf(form: HTMLFormElement, fields: StandardViewProps<'form'>['props']['fields']): Values {
  const data = new FormData(form)
  const values: Values = {}
  for (const field of fields) {
    if (field.kind === 'checkbox') { values[field.name] = data.get(field.name) !== null; continue }
    const raw = data.get(field.name)
    if (typeof raw !== 'string' || raw === '') continue
    values[field.name] = field.kind === 'number' ? Number(raw) : raw
  }
  return values
}

/** The user message a submitted form reads as: each field's label and value. */
function summary(title: string, fields: StandardViewProps<'form'>['props']['fields'], values: Values): string {
  const shown = fields.filter((field) => values[field.name] !== undefined).map((field) => {
    const value = values[field.name]
    const option = field.options?.find((candidate) => candidate.value === value)
    return `${field.label}: ${option?.label ?? (typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value))}`
  })
  return `${title} — ${shown.join(', ') || 'sent'}`
}

/** A form: labelled native fields (the browser checks required, number and email), Enter or the button submits. */
export function FormView({ props, answered, interact }: StandardViewProps<'form'>): ReactNode {
  const base = useId()
  const words = useLabels(componentLabels)
  const title = props.title ?? words.form
  const sent = (answered?.value ?? {}) as Values
  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault()
    const values = valuesOf(event.currentTarget, props.fields)
    interact('submit', values, summary(title, props.fields, values))
  }
  return (
    <form aria-labelledby={`${base}-t`} data-chatrail-component="form" data-chatrail-answered={answered ? '' : undefined} onSubmit={onSubmit}>
      <p id={`${base}-t`} data-chatrail-component-title="">{title}</p>
      <fieldset disabled={answered !== undefined}>
        {props.fields.map((field) => {
          const id = `${base}-${field.name}`
          const previous = sent[field.name]
          if (field.kind === 'checkbox') {
            return (
              <label key={field.name} data-chatrail-field="checkbox" htmlFor={id}>
                <input id={id} name={field.name} type="checkbox" defaultChecked={previous === true} /> {field.label}
              </label>
            )
          }
          return (
            <div key={field.name} data-chatrail-field={field.kind}>
              <label htmlFor={id}>{field.label}{field.required ? ' *' : ''}</label>
              {field.kind === 'select'
                ? (
                  <select id={id} name={field.name} required={field.required} defaultValue={typeof previous === 'string' ? previous : ''}>
                    <option value="">{words.chooseField}</option>
                    {(field.options ?? []).map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
                  </select>
                )
                : <input id={id} name={field.name} type={field.kind} required={field.required} defaultValue={previous === undefined ? undefined : String(previous)} />}
            </div>
          )
        })}
        <button type="submit" data-chatrail-variant="primary">{answered ? words.sent : (props.submitLabel ?? words.submit)}</button>
      </fieldset>
    </form>
  )
}
