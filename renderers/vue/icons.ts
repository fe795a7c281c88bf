import { h } from 'vue'

/** Inline 16 px stroke icons (no icon font, no request); decorative: the button carries the name. */
export const icon = (d: string) => h('svg', { viewBox: '0 0 24 24', width: 16, height: 16, 'aria-hidden': 'true', focusable: 'false', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, h('path', { d }))

export const COPY = 'M9 9h11v11H9zM5 15H4V4h11v1'
export const CHECK = 'M5 13l4 4L19 7'
export const EDIT = 'M4 20h4L19 9l-4-4L4 16zM14 6l4 4'
export const REGENERATE = 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7'
