import { resolveChatTheme } from './resolve-theme.js'
import { parseHexColor } from './theme-contrast.js'
import type { ChatTheme, ChatThemeColors, ChatThemeInput } from './theme-tokens.js'

/**
 * A theme as chatrail's stylesheet custom properties (renderers/react/styles.css): the one mapping
 * chatrail/react and the `chatrail serve` page use, memoized per theme object and scheme, so a
 * render that passes the same theme costs a lookup. Whatever it is given goes through
 * `resolveChatTheme` first (also memoized), so only validated tokens ever reach a stylesheet. The tints the stylesheet derives from the
 * colours (the hover and user-bubble backgrounds, the error banner's) are mixed here the same way.
 */

const SYSTEM_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'

const hex = (value: number): string => Math.round(value).toString(16).padStart(2, '0')

/** `amount` (0–1) of `top` over `bottom`, both hex, as an opaque `#rrggbb`. */
function mix(top: string, bottom: string, amount: number): string {
  const a = parseHexColor(top)
  const b = parseHexColor(bottom)
  const channel = (x: number, y: number): string => hex(x * amount + y * (1 - amount))
  return `#${channel(a.r, b.r)}${channel(a.g, b.g)}${channel(a.b, b.b)}`
}

function colorVariables(colors: ChatThemeColors): Record<string, string> {
  return {
    '--chatrail-bg': colors.background,
    '--chatrail-surface': colors.surface,
    '--chatrail-hover': mix(colors.text, colors.surface, 0.06),
    '--chatrail-border': colors.border,
    '--chatrail-fg': colors.text,
    '--chatrail-muted': colors.muted,
    '--chatrail-accent': colors.accent,
    '--chatrail-accent-fg': colors.onAccent,
    '--chatrail-user': mix(colors.accent, colors.background, 0.12),
    '--chatrail-danger': colors.danger,
    '--chatrail-danger-surface': mix(colors.danger, colors.background, 0.1),
    '--chatrail-code-bg': colors.surface,
  }
}

const resolved = new WeakMap<object, ChatTheme>()
const cache = new WeakMap<ChatTheme, Partial<Record<'light' | 'dark', Readonly<Record<string, string>>>>>()

/** `resolveChatTheme(input)`, once per input object (it throws `ChatrailConfigError` for a bad one). */
function themeOf(input: ChatThemeInput | ChatTheme): ChatTheme {
  const known = resolved.get(input)
  if (known) return known
  const theme = resolveChatTheme(input)
  resolved.set(input, theme)
  resolved.set(theme, theme)
  return theme
}

/** The custom properties for `theme` in `scheme` (default light), e.g. `{ '--chatrail-accent': '#2454d6', … }`. Memoized; frozen. */
export function toChatCssVariables(input: ChatThemeInput | ChatTheme, scheme: 'light' | 'dark' = 'light'): Readonly<Record<string, string>> {
  const theme = themeOf(input)
  const known = cache.get(theme) ?? {}
  const found = known[scheme]
  if (found) return found
  const variables = Object.freeze({
    ...colorVariables(theme.schemes[scheme]),
    '--chatrail-font': theme.fontFamily === 'system' ? SYSTEM_FONT : `"${theme.fontFamily}", ${SYSTEM_FONT}`,
    '--chatrail-gap': `${theme.spacing.small}px`,
    '--chatrail-stream-gap': `${theme.spacing.large}px`,
    '--chatrail-radius': `${theme.radius.medium}px`,
  })
  cache.set(theme, { ...known, [scheme]: variables })
  return variables
}

const DEFAULT_SCOPE = '[data-chatrail-chat][data-chatrail-chat]'

const block = (selector: string, variables: Readonly<Record<string, string>>): string =>
  `${selector}{${Object.entries(variables).map(([name, value]) => `${name}:${value}`).join(';')}}`

/**
 * A stylesheet that applies the theme to the chats `scope` selects (default: every chat on the
 * page), with the stylesheet's own scheme rules: light by default, dark under
 * `prefers-color-scheme: dark` unless `.chatrail-light` forces light, dark under `.chatrail-dark`.
 * The default scope names the chat's attribute twice: one attribute more specific than the
 * stylesheet's rules, so the theme wins whatever order the two load in. Every value is a validated
 * token (hex, pixels, one family name), so nothing in it can close the rule.
 */
export function chatThemeCss(input: ChatThemeInput | ChatTheme, scope = DEFAULT_SCOPE): string {
  const theme = themeOf(input)
  const dark = toChatCssVariables(theme, 'dark')
  return [
    block(scope, toChatCssVariables(theme, 'light')),
    `@media (prefers-color-scheme: dark){${block(`${scope}:not(.chatrail-light, .chatrail-light *)`, dark)}}`,
    block(`${scope}.chatrail-dark, .chatrail-dark ${scope}`, dark),
  ].join('\n')
}
