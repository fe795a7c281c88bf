/**
 * The words the standard catalog's views show and send, for every binding: what a submitted form
 * reads as in history, a table cell, a file's size, a progress bar's status. Pure.
 */

/** A form's values as the `submit` interaction takes them: numbers as numbers, checkboxes as booleans. */
export type FormValues = Record<string, string | number | boolean>

interface FormField {
  readonly name: string
  readonly label: string
  readonly kind: string
  readonly options?: readonly { readonly value: string; readonly label: string }[] | undefined
}

/** Pure: the fields' raw values (`read(name)`: a string, or null when absent) as the `submit` event takes them; empty fields are left out. */
export function formValuesOf(fields: readonly FormField[], read: (name: string) => string | null): FormValues {
  const values: FormValues = {}
  for (const field of fields) {
    const raw = read(field.name)
    if (field.kind === 'checkbox') { values[field.name] = raw !== null; continue }
    if (raw === null || raw === '') continue
    values[field.name] = field.kind === 'number' ? Number(raw) : raw
  }
  return values
}

/** Pure: the user message a submitted form reads as: its title, then each field's label and value. */
export function formSummary(title: string, fields: readonly FormField[], values: FormValues): string {
  const shown = fields.filter((field) => values[field.name] !== undefined).map((field) => {
    const value = values[field.name]
    const option = field.options?.find((candidate) => candidate.value === value)
    return `${field.label}: ${option?.label ?? (typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value))}`
  })
  return `${title} — ${shown.join(', ') || 'sent'}`
}

/** Pure: a table cell's text (booleans as yes / no, nothing for null). */
export function cellText(value: string | number | boolean | null | undefined): string {
  return value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)
}

/** Pure: a file size in B, kB or MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** Pure: a progress bar's percent (undefined when indeterminate) and status words. */
export function progressOf(value: number | undefined, status: string | undefined): { percent: number | undefined; text: string } {
  const percent = status === 'done' ? 100 : value === undefined ? undefined : Math.round(value * 100)
  const text = status === 'done' ? 'done' : status === 'failed' ? 'failed' : percent === undefined ? 'in progress' : `${percent}%`
  return { percent, text }
}
