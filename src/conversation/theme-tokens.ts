/**
 * A chat's look as data (AgentsKit Chat's semantic theme, issue 30): eight colours, three spacings,
 * two radii and a font family, with a light and a dark scheme. Renderers map it onto their own
 * styles (`toChatCssVariables` for chatrail/react and the `chatrail serve` page); `lintDefinition`
 * checks its contrast. Colours are hex only (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`): a value that
 * works in every renderer, a terminal included, and that a contrast check can read.
 */

export interface ChatThemeColors {
  /** The chat's background. */
  readonly background: string
  /** Bubbles, cards, code blocks. */
  readonly surface: string
  readonly border: string
  /** Body text, on `background` and on `surface`. */
  readonly text: string
  /** Secondary text (labels, hints), on `background`. */
  readonly muted: string
  /** Buttons, links, focus rings. */
  readonly accent: string
  /** Text on `accent` (a button's label). */
  readonly onAccent: string
  /** Errors, on `background`. */
  readonly danger: string
}

export interface ChatThemeSpacing {
  readonly small: number
  readonly medium: number
  readonly large: number
}

export interface ChatThemeRadius {
  readonly medium: number
  readonly large: number
}

/** A resolved theme: every token set. `colors` is the light scheme; `schemes.dark` the dark one. */
export interface ChatTheme {
  readonly colors: ChatThemeColors
  readonly spacing: ChatThemeSpacing
  readonly radius: ChatThemeRadius
  /** `'system'` (the platform's UI font) or one family name, e.g. `'Inter'`. */
  readonly fontFamily: string
  readonly schemes: { readonly light: ChatThemeColors; readonly dark: ChatThemeColors }
}

/** What a definition or a renderer is given: any subset, merged over the defaults. */
export interface ChatThemeInput {
  readonly colors?: Partial<ChatThemeColors>
  readonly spacing?: Partial<ChatThemeSpacing>
  readonly radius?: Partial<ChatThemeRadius>
  readonly fontFamily?: string
  /** Per-scheme colours; `light` merges over `colors`, `dark` over the default dark scheme. */
  readonly schemes?: { readonly light?: Partial<ChatThemeColors>; readonly dark?: Partial<ChatThemeColors> }
}

export const THEME_COLOR_NAMES = ['background', 'surface', 'border', 'text', 'muted', 'accent', 'onAccent', 'danger'] as const satisfies readonly (keyof ChatThemeColors)[]
export const THEME_SPACING_NAMES = ['small', 'medium', 'large'] as const satisfies readonly (keyof ChatThemeSpacing)[]
export const THEME_RADIUS_NAMES = ['medium', 'large'] as const satisfies readonly (keyof ChatThemeRadius)[]

/** chatrail's stylesheet colours (renderers/react/styles.css), light and dark. */
const light: ChatThemeColors = Object.freeze({
  background: '#ffffff', surface: '#f3f5f7', border: '#d0d7de', text: '#1b1f24', muted: '#57606a', accent: '#2454d6', onAccent: '#ffffff', danger: '#b42318',
})
const dark: ChatThemeColors = Object.freeze({
  background: '#0f1419', surface: '#1a2029', border: '#3a4350', text: '#e6edf3', muted: '#9ba6b2', accent: '#6ea2ff', onAccent: '#0b1220', danger: '#ff8a80',
})

/** The theme chatrail's stylesheet draws when none is given. */
export const defaultChatTheme: ChatTheme = Object.freeze({
  colors: light,
  spacing: Object.freeze({ small: 6, medium: 10, large: 12 }),
  radius: Object.freeze({ medium: 10, large: 14 }),
  fontFamily: 'system',
  schemes: Object.freeze({ light, dark }),
})
