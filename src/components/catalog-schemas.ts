import * as z from 'zod/mini'
import { isSafeUrl } from './safe-url.js'

/**
 * The props schemas of the standard catalog (zod/mini: the catalog costs a few kB, not zod's
 * whole classic API). Ids are safe ids; URLs are relative or credential-free http(s); every list
 * and string is bounded, so a component can be drawn and read aloud whatever made it.
 */

const id = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'an id: letters, digits, . _ : -, at most 128'))
const label = z.string().check(z.minLength(1), z.maxLength(200))
const text = z.string().check(z.maxLength(4096))
const url = z.string().check(z.refine(isSafeUrl, 'a relative or credential-free http(s) URL'))
const jsonRecord = z.record(z.string(), z.unknown())

export const buttonGroupProps = z.object({
  label: z.optional(label),
  buttons: z.array(z.object({ id, label, disabled: z.optional(z.boolean()), variant: z.optional(z.enum(['primary', 'secondary', 'danger'])) })).check(z.minLength(1), z.maxLength(12)),
})

export const choiceListProps = z.object({
  prompt: z.optional(text),
  choices: z.array(z.object({
    id,
    label,
    description: z.optional(text),
    /** A typed action: choosing it proposes this action for confirmation instead of sending a message. */
    action: z.optional(z.object({ name: id, input: jsonRecord })),
  })).check(z.minLength(1), z.maxLength(50)),
})

const formField = z.object({
  name: id,
  label,
  kind: z.enum(['text', 'number', 'email', 'checkbox', 'select']),
  required: z.optional(z.boolean()),
  options: z.optional(z.array(z.object({ value: id, label })).check(z.maxLength(50))),
})
export const formProps = z.object({
  title: z.optional(label),
  fields: z.array(formField).check(z.minLength(1), z.maxLength(30)),
  submitLabel: z.optional(label),
})

export const confirmationProps = z.object({
  title: label,
  body: z.optional(text),
  confirmLabel: z.optional(label),
  cancelLabel: z.optional(label),
  destructive: z.optional(z.boolean()),
})

export const progressProps = z.object({
  label,
  /** 0–1; absent while the amount is not known. */
  value: z.optional(z.number().check(z.gte(0), z.lte(1))),
  status: z.optional(z.enum(['running', 'done', 'failed'])),
})

export const sourceListProps = z.object({
  sources: z.array(z.object({ title: label, url, snippet: z.optional(text) })).check(z.minLength(1), z.maxLength(30)),
})

export const linkCardProps = z.object({ title: label, href: url, description: z.optional(text) })

export const errorNoticeProps = z.object({ title: label, message: text, code: z.optional(id), retryable: z.optional(z.boolean()) })

export const toolCallProps = z.object({
  name: id,
  args: jsonRecord,
  status: z.enum(['running', 'complete', 'error']),
  result: z.optional(text),
})

export const approvalRequestProps = z.object({
  /** The confirmation token the approve and reject events act on. */
  token: id,
  title: label,
  action: z.object({ name: id, input: jsonRecord }),
  /** ISO 8601; renderers show the time left and disable the buttons once it passed. */
  expiresAt: z.optional(z.iso.datetime()),
})

const cell = z.union([z.string().check(z.maxLength(1000)), z.number(), z.boolean(), z.null()])
export const tableProps = z.object({
  caption: z.optional(label),
  columns: z.array(z.object({ key: id, label })).check(z.minLength(1), z.maxLength(20)),
  rows: z.array(z.record(z.string(), cell)).check(z.maxLength(200)),
})

export const fileAttachmentProps = z.object({
  name: label,
  url,
  mimeType: z.optional(z.string().check(z.regex(/^[\w.+-]+\/[\w.+-]+$/))),
  /** Bytes. */
  size: z.optional(z.number().check(z.int(), z.gte(0))),
})
