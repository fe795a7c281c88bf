import { useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import { loadCodeHighlight, loadedCodeHighlight } from './code-highlight-loader.js'
import type { CodeHighlight } from './code-highlight-loader.js'
import { useMessageUIKit } from './message-ui-context.js'

/**
 * A fenced block's code: plain text at once, highlighted once the highlighter chunk is in (that
 * chunk is requested only when a block with a language renders; a block without one never asks).
 * A failed load or an unknown language stays plain. Tokens are React text, never HTML.
 */
export function CodeBlock({ code, language }: { code: string; language: string }): ReactNode {
  const kit = useMessageUIKit()
  const [highlighter, setHighlighter] = useState<CodeHighlight | undefined>(() => (language === '' ? undefined : loadedCodeHighlight(kit)))
  useEffect(() => {
    if (language === '' || highlighter !== undefined) return
    let live = true
    void loadCodeHighlight(kit).then((loaded) => { if (live && !(loaded instanceof Error)) setHighlighter(loaded) })
    return () => { live = false }
  }, [language, highlighter, kit])
  const tokens = highlighter === undefined || language === '' ? undefined : highlighter.highlightCode(code, language)
  if (tokens === undefined) return <pre><code>{code}</code></pre>
  return (
    <pre data-chatrail-highlighted=""><code>
      {tokens.map((token, index) => (token.className === '' ? token.text : <span key={index} className={token.className}>{token.text}</span>))}
    </code></pre>
  )
}
