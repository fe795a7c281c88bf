import type { StreamChunk } from '../contract/stream.js'
import { failed, type Answer, type Resolution, type TurnContext } from './resolution.js'
import type { FormSlot, FormText } from './definition.js'
import type { JsonObject, JsonValue } from './json.js'
import { FORM_ATTEMPTS, advance, assignContext, type Machine, type MachineState } from './machine.js'

/**
 * Forms: a state that collects named slots. A user message no route takes, in a state with a form
 * and an empty slot, answers the first empty slot (declaration order). Valid: the value lands in the
 * context and the next prompt is asked, or `done` fires when none is left. Invalid: the re-prompt,
 * and the attempt count in the context (`formAttempts`), so replay and rebuild read it from the
 * decision records like any other patch; past the slot's `maxAttempts`, `exhausted` fires. Every
 * callback here is synchronous, so a form turn is re-derivable like a sync route. Pure apart from
 * the author's callbacks.
 */

function say<Ctx extends JsonObject>(text: FormText<Ctx> | undefined, context: Readonly<Ctx>): string {
  return text === undefined ? '' : typeof text === 'string' ? text : text(context)
}

/** One text chunk of the non-empty parts, a blank line apart (none when all are empty). */
export function textChunks(...parts: string[]): readonly StreamChunk[] {
  const content = parts.filter((part) => part !== '').join('\n\n')
  return content === '' ? [] : [Object.freeze({ type: 'text' as const, content })]
}

function firstEmpty<Ctx extends JsonObject>(slots: Record<string, FormSlot<Ctx>>, context: Readonly<Ctx>): [string, FormSlot<Ctx>] | undefined {
  for (const entry of Object.entries(slots)) if (context[entry[0]] === undefined) return entry
  return undefined
}

/** `chunks` plus the prompt of the first empty slot when `after`'s state has a form (asked on entry). */
export function entryPrompt<Ctx extends JsonObject>(machine: Machine<Ctx>, after: MachineState<Ctx>, chunks: readonly StreamChunk[]): readonly StreamChunk[] {
  const form = machine.states.get(after.state)?.form
  const slot = form && firstEmpty(form.slots, after.context)
  if (!slot) return chunks
  const prompt = say(slot[1].prompt, after.context)
  if (prompt === '') return chunks
  return [...chunks, Object.freeze({ type: 'text' as const, content: chunks.some((chunk) => chunk.type === 'text') ? `\n\n${prompt}` : prompt })]
}

/** The value a slot stores for `input`, or undefined when the answer is invalid. */
function validate<Ctx extends JsonObject>(slot: FormSlot<Ctx>, input: string, context: Readonly<Ctx>): JsonValue | undefined {
  const answer = input.trim()
  const validator = slot.validate
  if (validator === undefined) return answer === '' ? undefined : answer
  if (typeof validator === 'function') return validator(answer, context)
  const result = validator.safeParse(answer)
  return result.success ? (result.data as JsonValue) : undefined
}

/** A form turn for the message, or undefined when the state has no form (or no empty slot) or it is a UI event. */
export function resolveForm<Ctx extends JsonObject>(machine: Machine<Ctx>, before: MachineState<Ctx>, ctx: TurnContext<Ctx>): Resolution<Ctx> | undefined {
  const form = machine.states.get(before.state)?.form
  if (!form || ctx.uiEvent !== undefined) return undefined
  const slot = firstEmpty(form.slots, before.context)
  if (!slot) return undefined
  const [name, definition] = slot
  const context = before.context
  try {
    const value = validate(definition, ctx.input, context)
    if (value !== undefined) {
      const assign = { [name]: value, ...(context[FORM_ATTEMPTS] === undefined ? {} : { [FORM_ATTEMPTS]: undefined }) } as Partial<Ctx>
      const filled = assignContext(context, assign)
      if (!filled) return failed(undefined, 'assign-not-json', undefined, `the value of slot "${name}" is not JSON`)
      const next = firstEmpty(form.slots, filled)
      if (next) return answer(undefined, Object.freeze({ state: before.state, context: filled }), assign, textChunks(say(next[1].prompt, filled)), 'slot-filled')
      return transition(form.done, assign, (after) => say(form.response, after.context), 'form-complete')
    }
    const attempts = (typeof context[FORM_ATTEMPTS] === 'number' ? context[FORM_ATTEMPTS] : 0) + 1
    if (definition.maxAttempts !== undefined && attempts >= definition.maxAttempts && form.exhausted !== undefined) {
      return transition(form.exhausted, undefined, (after) => say(form.exhaustedResponse, after.context), 'form-exhausted')
    }
    const assign = { [FORM_ATTEMPTS]: attempts } as unknown as Partial<Ctx>
    const after = Object.freeze({ state: before.state, context: assignContext(context, assign) ?? context })
    return { ...answer(undefined, after, assign, textChunks(say(definition.reprompt ?? definition.prompt, context)), 'invalid-slot'), outcome: 'refused' }
  } catch (error) {
    return failed(undefined, 'form-threw', error, `the form of state "${before.state}" threw`)
  }

  function answer(event: string | undefined, after: MachineState<Ctx>, assign: Partial<Ctx> | undefined, chunks: readonly StreamChunk[], reason: string): Answer<Ctx> {
    return { type: 'match', route: undefined, event, after, assign, chunks, reason }
  }

  function transition(event: string, assign: Partial<Ctx> | undefined, text: (after: MachineState<Ctx>) => string, reason: string): Resolution<Ctx> {
    // `advance`, not `step`: the effect list is never read here (and `step` then stays off the initial load)
    const after = advance(machine, before, event, assign)
    if ('type' in after) return failed(undefined, `transition-refused:${after.reason}`, after.error, `the machine refused the form's "${event}" transition`)
    return answer(event, after, assign, entryPrompt(machine, after, textChunks(text(after))), reason)
  }
}
