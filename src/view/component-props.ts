import type * as z from 'zod/mini'
import * as schemas from '../components/catalog-schemas.js'
import type { ComponentCatalog, ComponentPart } from '../contract/component-part.js'
import type { ComponentAnswer } from './component-key.js'

/**
 * Whether a component part from outside (a stream, the store, another tab) may be drawn, and with
 * which props. One rule for every key: the definition's registry must resolve it when the
 * definition names one; a standard key's props must also pass the standard schema, since its view
 * reads them in that shape (a registry may hold its own definition under a standard key). Without
 * a registry (the serve page's browser definition has none) only the standard keys are drawn.
 * Anything refused shows its fallback summary.
 */

export const STANDARD_PROPS = {
  'button-group': schemas.buttonGroupProps,
  'choice-list': schemas.choiceListProps,
  form: schemas.formProps,
  confirmation: schemas.confirmationProps,
  progress: schemas.progressProps,
  'source-list': schemas.sourceListProps,
  'link-card': schemas.linkCardProps,
  'error-notice': schemas.errorNoticeProps,
  'tool-call': schemas.toolCallProps,
  'approval-request': schemas.approvalRequestProps,
  table: schemas.tableProps,
  'file-attachment': schemas.fileAttachmentProps,
} as const

export type StandardKey = keyof typeof STANDARD_PROPS
export type StandardProps<K extends StandardKey> = z.infer<(typeof STANDARD_PROPS)[K]>

export function isStandardKey(key: string): key is StandardKey {
  return Object.hasOwn(STANDARD_PROPS, key)
}

export type CheckedProps = { readonly ok: true; readonly props: unknown } | { readonly ok: false }

export function checkedProps(part: ComponentPart, catalog: ComponentCatalog | undefined): CheckedProps {
  let props: unknown = part.props
  if (catalog !== undefined) {
    const resolved = catalog.resolve(part) as { ok: boolean; value?: { props?: unknown } }
    if (!resolved.ok) return { ok: false }
    if (resolved.value !== undefined && 'props' in resolved.value) props = resolved.value.props
  } else if (!isStandardKey(part.componentKey)) {
    return { ok: false }
  }
  if (!isStandardKey(part.componentKey)) return { ok: true, props }
  const result = STANDARD_PROPS[part.componentKey]['~standard'].validate(props)
  if (result instanceof Promise || result.issues !== undefined) return { ok: false }
  return { ok: true, props: result.value }
}

/** What a standard view gets: its checked props, the answer if any, and the interaction sender. */
export interface StandardViewProps<K extends StandardKey> {
  readonly props: StandardProps<K>
  readonly answered: ComponentAnswer | undefined
  readonly interact: (event: string, value?: unknown, label?: string) => void
}
