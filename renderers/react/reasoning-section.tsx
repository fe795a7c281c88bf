import { useId, useState } from 'react'
import type { ReactNode } from 'react'
import { extrasLabels } from '../../src/view/extras-labels.js'
import { useLabels } from './extras-context.js'

/**
 * A reply's `reasoning` chunks as a "Thinking" disclosure (`div[data-chatrail-reasoning]`, a real
 * button with `aria-expanded`): open while the reply streams, so the thinking shows as it comes,
 * closed once the answer is complete, unless the user toggled it. Plain text, never markdown: it is
 * the model's scratch work, not its answer.
 */
export function ReasoningSection({ text, streaming }: { text: string; streaming: boolean }): ReactNode {
  const [toggled, setToggled] = useState<boolean | undefined>()
  const words = useLabels(extrasLabels)
  const id = useId()
  const open = toggled ?? streaming
  return (
    <div data-chatrail-reasoning="" data-chatrail-reasoning-streaming={streaming ? '' : undefined}>
      <button type="button" data-chatrail-reasoning-toggle="" aria-expanded={open} aria-controls={id} onClick={() => setToggled(!open)}>
        {streaming ? words.thinkingNow : words.thinking}
      </button>
      <div id={id} data-chatrail-reasoning-text="" hidden={!open}>{text}</div>
    </div>
  )
}
