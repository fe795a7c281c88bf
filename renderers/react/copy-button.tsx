import { useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import { CheckIcon, CopyIcon } from './icons.js'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'

/** How long "Copied" shows after a copy. */
export const COPIED_MS = 1500

/**
 * A quiet icon button that copies `text` to the clipboard (`data-chatrail-copy`); after a copy it
 * shows a check and says "Copied" (`data-chatrail-copied`) for a moment. A refused clipboard
 * (no permission, insecure page) leaves it as it was.
 */
export function CopyButton({ text, label }: { text: string; label: string }): ReactNode {
  const [copied, setCopied] = useState(false)
  const { copied: copiedWord } = useLabels(messageLabels)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = (): void => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => {})
  }
  return (
    <button type="button" data-chatrail-copy="" data-chatrail-icon-button="" data-chatrail-copied={copied ? '' : undefined} aria-label={copied ? copiedWord : label} title={copied ? copiedWord : label} onClick={copy}>
      {copied ? <CheckIcon /> : <CopyIcon />}
    </button>
  )
}
