import type { ComponentPart } from '../contract/component-part.js'
import { isComponentPart } from '../contract/component-chunk.js'
import type { Message } from '../contract/message.js'
import { answeredInteractions } from '../conversation/interaction-judge.js'
import type { ComponentCatalog } from '../contract/component-part.js'

/** One row of a component picker: what it sends (`event`, `value`) and what the user message reads. */
export interface ComponentChoice {
  readonly value: string
  readonly label: string
  readonly description?: string
}

/** A choice list or a button group the user can answer now, from the terminal. */
export interface PendingComponent {
  /** `<messageId>:<instanceId>`, as `answeredInteractions` keys it. */
  readonly key: string
  readonly messageId: string
  readonly part: ComponentPart
  readonly event: 'select' | 'press'
  readonly prompt: string
  readonly choices: readonly ComponentChoice[]
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The rows of a choice list or a button group (enabled buttons only), or undefined when its props are not that shape. */
function choicesOf(part: ComponentPart): { event: 'select' | 'press'; prompt: string; choices: ComponentChoice[] } | undefined {
  const props = part.props
  if (!isRecord(props)) return undefined
  const list = part.componentKey === 'choice-list' ? props.choices : part.componentKey === 'button-group' ? props.buttons : undefined
  if (!Array.isArray(list)) return undefined
  const choices: ComponentChoice[] = []
  for (const item of list) {
    if (!isRecord(item) || typeof item.id !== 'string' || typeof item.label !== 'string') return undefined
    if (item.disabled === true) continue
    choices.push({ value: item.id, label: item.label, ...(typeof item.description === 'string' ? { description: item.description } : {}) })
  }
  if (choices.length === 0) return undefined
  const prompt = part.componentKey === 'choice-list' ? props.prompt : props.label
  return { event: part.componentKey === 'choice-list' ? 'select' : 'press', prompt: typeof prompt === 'string' ? prompt : 'Choose one', choices }
}

/**
 * The first unanswered choice list or button group of the last answer, when the chat has moved
 * on from nothing since (the answer is the last message): the terminal answers one at a time, in
 * the flow, so only the newest question gets a picker. Pure: the same history gives the same result.
 * With the definition's registry, a part it does not resolve is never offered (it shows its summary).
 */
export function pendingComponentOf(messages: readonly Message[], catalog: ComponentCatalog | undefined): PendingComponent | undefined {
  const last = messages.at(-1)
  if (last === undefined || last.role !== 'assistant' || last.status !== 'complete') return undefined
  const answered = answeredInteractions(messages, catalog)
  for (const part of last.parts ?? []) {
    if (!isComponentPart(part)) continue
    const key = `${last.id}:${part.instanceId}`
    if (answered.has(key) || (catalog !== undefined && !catalog.resolve(part).ok)) continue
    const found = choicesOf(part)
    if (found !== undefined) return { key, messageId: last.id, part, ...found }
  }
  return undefined
}
