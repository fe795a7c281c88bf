import type { ReactNode } from 'react'
import { Markdown } from './markdown.js'

export interface PlanMarkdownProps {
  source: string
  /** The level of the plan's biggest heading; default 4 (under a dialog card's h3 title). */
  headingLevel?: number
}

/**
 * An agent's plan in markdown, through the same lazily loaded renderer as answers (`<Markdown>`),
 * never truncated (seed 001); until the renderer is in, the plan's source as plain text.
 */
export function PlanMarkdown({ source, headingLevel = 4 }: PlanMarkdownProps): ReactNode {
  return <div data-chatrail-plan=""><Markdown source={source} headingLevel={headingLevel} /></div>
}
