import { Suspense } from 'react'
import type { ReactNode } from 'react'
import { useDialogUI } from './dialog-ui-loader.js'

function LoadedPlanMarkdown({ source }: { source: string }): ReactNode {
  const ui = useDialogUI()
  return ui instanceof Error ? <PlanAsText source={source} /> : <ui.PlanMarkdownContent source={source} />
}

/** The plan's source as plain text: while the renderer loads, or if it failed to, the plan stays readable in full. */
function PlanAsText({ source, loading = false }: { source: string; loading?: boolean }): ReactNode {
  return <div data-chatrail-plan="" data-chatrail-plan-source="" aria-busy={loading}>{source}</div>
}

/**
 * A plan in markdown: headings, paragraphs, block quotes, lists, fenced code, inline code and
 * bold, built as React elements (never HTML strings, so plan text cannot inject markup); never
 * truncated (seed 001). The renderer is part of the lazily loaded dialog UI (`preloadDialogUI()`);
 * until it is in, the source shows as plain text.
 */
export function PlanMarkdown({ source }: { source: string }): ReactNode {
  return (
    <Suspense fallback={<PlanAsText source={source} loading />}>
      <LoadedPlanMarkdown source={source} />
    </Suspense>
  )
}
