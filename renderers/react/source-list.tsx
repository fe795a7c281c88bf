import type { ReactNode } from 'react'
import { extrasLabels } from '../../src/view/extras-labels.js'
import { useLabels } from './extras-context.js'
import { isSafeUrl } from '../../src/components/safe-url.js'
import type { MessageSource } from '../../src/contract/message-source.js'
import { sourceLabel } from '../../src/view/source-label.js'

/**
 * The sources a reply cites (`nav[data-chatrail-sources]`, a numbered list of links). Only safe urls
 * are links (`isSafeUrl`: http(s) or relative, no credentials, no `javascript:`); any other is shown
 * as plain text, so nothing cited is hidden and nothing unsafe is clickable. Links open in a new tab
 * without the opener or the referrer.
 */
export function SourceList({ sources }: { sources: readonly MessageSource[] }): ReactNode {
  const words = useLabels(extrasLabels)
  if (sources.length === 0) return null
  return (
    <nav data-chatrail-sources="" aria-label={words.sources}>
      <p data-chatrail-sources-label="">{words.sources}</p>
      <ol>
        {sources.map((source) => (
          <li key={source.url}>
            {isSafeUrl(source.url)
              ? <a href={source.url} target="_blank" rel="noopener noreferrer" title={source.url}>{sourceLabel(source)}</a>
              : <span data-chatrail-source-unsafe="">{sourceLabel(source)}</span>}
          </li>
        ))}
      </ol>
    </nav>
  )
}
