import { configIssue, type ConfigIssue } from './config-error.js'
import type { ChatTheme, ChatThemeColors } from './theme-tokens.js'

/** A hex colour as sRGB channels 0–255 and alpha 0–1 (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`). */
export function parseHexColor(hex: string): { r: number; g: number; b: number; a: number } {
  const digits = hex.slice(1)
  const full = digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits
  const channel = (index: number): number => Number.parseInt(full.slice(index * 2, index * 2 + 2), 16)
  return { r: channel(0), g: channel(1), b: channel(2), a: full.length === 8 ? channel(3) / 255 : 1 }
}

/** `top` painted over the opaque `bottom` (alpha compositing), as an opaque colour. */
function over(top: ReturnType<typeof parseHexColor>, bottom: ReturnType<typeof parseHexColor>): ReturnType<typeof parseHexColor> {
  const mix = (a: number, b: number): number => a * top.a + b * (1 - top.a)
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 }
}

/** WCAG 2.x relative luminance of an opaque colour. */
function luminance({ r, g, b }: { r: number; g: number; b: number }): number {
  const linear = (value: number): number => {
    const c = value / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/**
 * The WCAG 2.x contrast ratio (1 to 21) of `foreground` on `background`, both hex. A translucent
 * background is taken over white, a translucent foreground over that background, as a browser
 * paints them.
 */
export function contrastRatio(foreground: string, background: string): number {
  const white = { r: 255, g: 255, b: 255, a: 1 }
  const bottom = over(parseHexColor(background), white)
  const top = over(parseHexColor(foreground), bottom)
  const [lighter, darker] = [luminance(top), luminance(bottom)].sort((a, b) => b - a) as [number, number]
  return (lighter + 0.05) / (darker + 0.05)
}

/** WCAG 2.x level AA for body text. */
export const TEXT_CONTRAST = 4.5

/** The pairs chatrail's renderers draw text with: foreground token on background token. */
const TEXT_PAIRS: readonly (readonly [keyof ChatThemeColors, keyof ChatThemeColors, string])[] = [
  ['text', 'background', 'body text'],
  ['text', 'surface', 'text in bubbles and cards'],
  ['muted', 'background', 'labels and hints'],
  ['accent', 'background', 'links'],
  ['onAccent', 'accent', 'button labels'],
  ['danger', 'background', 'error text'],
]

/**
 * Where a theme's text falls short of WCAG AA (4.5:1), in each scheme, as lint warnings whose path
 * names the foreground token (`theme.schemes.dark.muted`) and whose hint says by how much. Pure.
 */
export function themeContrastIssues(theme: ChatTheme, root: (string | number)[] = ['theme']): ConfigIssue[] {
  const issues: ConfigIssue[] = []
  for (const scheme of ['light', 'dark'] as const) {
    const colors = theme.schemes[scheme]
    for (const [foreground, background, use] of TEXT_PAIRS) {
      const ratio = contrastRatio(colors[foreground], colors[background])
      if (ratio >= TEXT_CONTRAST) continue
      const path = scheme === 'light' ? [...root, 'colors', foreground] : [...root, 'schemes', 'dark', foreground]
      issues.push(configIssue(
        'theme_contrast',
        path,
        `Theme ${scheme} scheme: ${foreground} ${colors[foreground]} on ${background} ${colors[background]} (${use}) has a contrast of ${ratio.toFixed(2)}:1, under WCAG AA's ${TEXT_CONTRAST}:1.`,
        `Darken or lighten ${foreground} (or ${background}) until the ratio is at least ${TEXT_CONTRAST}:1.`,
      ))
    }
  }
  return issues
}
