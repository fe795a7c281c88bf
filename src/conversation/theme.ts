// The `chatrail/theme` entry point: the semantic theme (tokens, validation, the stylesheet mapping,
// the WCAG contrast check), kept out of the `chatrail` entry so an app that never themes its chat
// does not ship it. docs/react.md § Theme.
export { defaultChatTheme } from './theme-tokens.js'
export { resolveChatTheme } from './resolve-theme.js'
export { contrastRatio, TEXT_CONTRAST, themeContrastIssues } from './theme-contrast.js'
export { chatThemeCss, toChatCssVariables } from './theme-css.js'
export type { ChatTheme, ChatThemeColors, ChatThemeInput, ChatThemeRadius, ChatThemeSpacing } from './theme-tokens.js'
