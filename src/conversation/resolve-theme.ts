import { ChatrailConfigError, configIssue, type ConfigIssue } from './config-error.js'
import {
  defaultChatTheme, THEME_COLOR_NAMES, THEME_RADIUS_NAMES, THEME_SPACING_NAMES,
  type ChatTheme, type ChatThemeColors, type ChatThemeInput,
} from './theme-tokens.js'

const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/
// One family name: no comma (a stack), quotes, `var(…)` or anything CSS would read as more than a name.
const FAMILY = /^(?:system|[A-Za-z0-9][A-Za-z0-9 _-]{0,127})$/
const MAX_LENGTH = 1000

type Path = (string | number)[]
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Checks an object's keys against the names allowed there; an unknown key is an issue. */
function checkKeys(value: Record<string, unknown>, allowed: readonly string[], path: Path, issues: ConfigIssue[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) issues.push(configIssue('unknown_theme_token', [...path, key], `Unknown theme token "${[...path, key].join('.')}".`, `Remove it; known here: ${allowed.join(', ')}.`))
  }
}

function readColors(value: unknown, path: Path, issues: ConfigIssue[]): Partial<ChatThemeColors> {
  if (value === undefined) return {}
  if (!isRecord(value)) {
    issues.push(configIssue('invalid_theme', path, `${path.join('.')} must be an object of colours.`, `Give colours by name: { ${THEME_COLOR_NAMES.join(', ')} }.`))
    return {}
  }
  checkKeys(value, THEME_COLOR_NAMES, path, issues)
  const colors: Record<string, string> = {}
  for (const name of THEME_COLOR_NAMES) {
    const color = value[name]
    if (color === undefined) continue
    if (typeof color === 'string' && HEX.test(color)) colors[name] = color.toLowerCase()
    else issues.push(configIssue('invalid_theme_color', [...path, name], `${[...path, name].join('.')} is ${JSON.stringify(color)}, not a hex colour.`, 'Use #rgb, #rgba, #rrggbb or #rrggbbaa (no names, var(…) or rgb(…): every renderer and the contrast check must read it).'))
  }
  return colors as Partial<ChatThemeColors>
}

function readLengths<K extends string>(value: unknown, names: readonly K[], path: Path, issues: ConfigIssue[]): Partial<Record<K, number>> {
  if (value === undefined) return {}
  if (!isRecord(value)) {
    issues.push(configIssue('invalid_theme', path, `${path.join('.')} must be an object of numbers.`, `Give lengths in pixels by name: { ${names.join(', ')} }.`))
    return {}
  }
  checkKeys(value, names, path, issues)
  const lengths: Partial<Record<K, number>> = {}
  for (const name of names) {
    const length = value[name]
    if (length === undefined) continue
    if (typeof length === 'number' && Number.isFinite(length) && length >= 0 && length <= MAX_LENGTH) lengths[name] = length
    else issues.push(configIssue('invalid_theme_length', [...path, name], `${[...path, name].join('.')} is ${JSON.stringify(length)}, not a length in pixels.`, `Use a number from 0 to ${MAX_LENGTH}.`))
  }
  return lengths
}

/**
 * The theme `input` describes, merged over `defaultChatTheme` (AgentsKit Chat's `resolveChatTheme`,
 * with light and dark schemes): `colors` and `schemes.light` over the default light colours,
 * `schemes.dark` over the default dark ones. Throws `ChatrailConfigError` listing every unknown
 * token and bad value, each with its path (`theme.colors.accent`) and the fix. Pure.
 */
export function resolveChatTheme(input: unknown = {}, root: Path = ['theme']): ChatTheme {
  const issues: ConfigIssue[] = []
  if (!isRecord(input)) throw new ChatrailConfigError([configIssue('invalid_theme', root, 'A theme must be an object.', 'Pass { colors?, spacing?, radius?, fontFamily?, schemes? }, or leave it out.')])
  const theme = input as ChatThemeInput & Record<string, unknown>
  checkKeys(theme, ['colors', 'spacing', 'radius', 'fontFamily', 'schemes'], root, issues)
  const colors = readColors(theme.colors, [...root, 'colors'], issues)
  const spacing = readLengths(theme.spacing, THEME_SPACING_NAMES, [...root, 'spacing'], issues)
  const radius = readLengths(theme.radius, THEME_RADIUS_NAMES, [...root, 'radius'], issues)
  let fontFamily = defaultChatTheme.fontFamily
  if (theme.fontFamily !== undefined) {
    if (typeof theme.fontFamily === 'string' && FAMILY.test(theme.fontFamily)) fontFamily = theme.fontFamily
    else issues.push(configIssue('invalid_theme_font', [...root, 'fontFamily'], `${[...root, 'fontFamily'].join('.')} is ${JSON.stringify(theme.fontFamily)}, not one font family name.`, "Use 'system' or one family name such as 'Inter' (no stacks, quotes or var(…); the renderer adds the fallbacks)."))
  }
  let lightScheme: Partial<ChatThemeColors> = {}
  let darkScheme: Partial<ChatThemeColors> = {}
  if (theme.schemes !== undefined) {
    if (!isRecord(theme.schemes)) issues.push(configIssue('invalid_theme', [...root, 'schemes'], `${[...root, 'schemes'].join('.')} must be { light?, dark? }.`, 'Give each scheme its colours: { light: { … }, dark: { … } }.'))
    else {
      checkKeys(theme.schemes, ['light', 'dark'], [...root, 'schemes'], issues)
      lightScheme = readColors(theme.schemes['light'], [...root, 'schemes', 'light'], issues)
      darkScheme = readColors(theme.schemes['dark'], [...root, 'schemes', 'dark'], issues)
    }
  }
  if (issues.length > 0) throw new ChatrailConfigError(issues)
  const light = Object.freeze({ ...defaultChatTheme.colors, ...colors, ...lightScheme })
  const dark = Object.freeze({ ...defaultChatTheme.schemes.dark, ...darkScheme })
  return Object.freeze({
    colors: light,
    spacing: Object.freeze({ ...defaultChatTheme.spacing, ...spacing }),
    radius: Object.freeze({ ...defaultChatTheme.radius, ...radius }),
    fontFamily,
    schemes: Object.freeze({ light, dark }),
  })
}
