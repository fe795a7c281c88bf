import type { ReactNode } from 'react'

/** Inline 16 px stroke icons (no icon font, no request); decorative: the button carries the name. */
function Icon({ d }: { d: string }): ReactNode {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={d} />
    </svg>
  )
}

export const CopyIcon = (): ReactNode => <Icon d="M9 9h11v11H9zM5 15H4V4h11v1" />
export const CheckIcon = (): ReactNode => <Icon d="M5 13l4 4L19 7" />
export const EditIcon = (): ReactNode => <Icon d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
export const RegenerateIcon = (): ReactNode => <Icon d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
export const ArrowDownIcon = (): ReactNode => <Icon d="M12 5v14M5 12l7 7 7-7" />
