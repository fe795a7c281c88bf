import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChatrailConfigError, defineChat } from '../../src/index.js'
import { lintDefinition } from '../../src/conversation/tools.js'
import { chatThemeCss, contrastRatio, defaultChatTheme, resolveChatTheme, themeContrastIssues, toChatCssVariables } from '../../src/conversation/theme.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'

/** Issue 30's theme tokens: AgentsKit Chat's `resolveChatTheme` invariants, light and dark schemes, a WCAG check in lint. */

const configError = (run: () => unknown): ChatrailConfigError => {
  try {
    run()
  } catch (error) {
    if (ChatrailConfigError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a ChatrailConfigError')
}

describe('resolveChatTheme', () => {
  it('deep-merges valid partial tokens over the defaults (AgentsKit Chat’s case)', () => {
    expect(resolveChatTheme({ colors: { accent: '#123456' }, spacing: { medium: 20 } })).toMatchObject({
      colors: { accent: '#123456', background: '#ffffff' }, spacing: { small: 6, medium: 20 }, fontFamily: 'system',
    })
    expect(resolveChatTheme()).toEqual(defaultChatTheme)
  })

  it('rejects empty, var(…), a font stack and unknown tokens, naming each path and the fix', () => {
    for (const [input, path] of [
      [{ colors: { accent: '' } }, 'theme.colors.accent'],
      [{ colors: { accent: 'var(--brand)' } }, 'theme.colors.accent'],
      [{ fontFamily: 'Inter, sans-serif' }, 'theme.fontFamily'],
      [{ futureToken: true }, 'theme.futureToken'],
      [{ spacing: { small: -1 } }, 'theme.spacing.small'],
      [{ radius: { medium: Number.NaN } }, 'theme.radius.medium'],
      [{ schemes: { dark: { text: 'white' } } }, 'theme.schemes.dark.text'],
      [{ schemes: { dusk: {} } }, 'theme.schemes.dusk'],
    ] as const) {
      const error = configError(() => resolveChatTheme(input))
      expect(error.path.join('.')).toBe(path)
      expect(error.hint).not.toBe('')
    }
    // every issue at once, not the first only
    expect(configError(() => resolveChatTheme({ colors: { accent: 'red', text: 'blue' }, fontFamily: '"x"' })).issues).toHaveLength(3)
    expect(() => resolveChatTheme('dark')).toThrow(ChatrailConfigError)
  })

  it('takes the light scheme over colors and the dark scheme over the default dark colours', () => {
    const theme = resolveChatTheme({ colors: { accent: '#111111' }, schemes: { light: { text: '#222222' }, dark: { accent: '#EEEEEE' } } })
    expect(theme.colors).toBe(theme.schemes.light)
    expect(theme.schemes.light).toMatchObject({ accent: '#111111', text: '#222222' })
    expect(theme.schemes.dark).toEqual({ ...defaultChatTheme.schemes.dark, accent: '#eeeeee' })
  })
})

describe('contrastRatio', () => {
  it('is WCAG’s: 21 for black on white, 1 for a colour on itself, 4.48 for #777 on white', () => {
    expect(contrastRatio('#000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#2454d6', '#2454d6')).toBeCloseTo(1, 5)
    expect(contrastRatio('#777777', '#fff')).toBeCloseTo(4.48, 2)
    // a translucent text colour is painted over its background first
    expect(contrastRatio('#00000080', '#ffffff')).toBeCloseTo(contrastRatio('#7f7f7f', '#ffffff'), 2)
  })

  it('is symmetric and between 1 and 21 for any two colours', () => {
    const color = fc.tuple(fc.integer({ min: 0, max: 0xffffff })).map(([value]) => `#${value.toString(16).padStart(6, '0')}`)
    fc.assert(fc.property(color, color, (a, b) => {
      const ratio = contrastRatio(a, b)
      expect(ratio).toBeGreaterThanOrEqual(1)
      expect(ratio).toBeLessThanOrEqual(21.0001)
      expect(contrastRatio(b, a)).toBeCloseTo(ratio, 9)
    }))
  })
})

describe('the contrast check', () => {
  it('finds nothing in the default theme, light or dark', () => {
    expect(themeContrastIssues(defaultChatTheme)).toEqual([])
  })

  it('names the token that falls short, in its scheme, with the ratio', () => {
    const issues = themeContrastIssues(resolveChatTheme({ colors: { muted: '#aaaaaa' }, schemes: { dark: { onAccent: '#6ea2ff' } } }))
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['theme.colors.muted', 'theme.schemes.dark.onAccent'])
    expect(issues[0]?.message).toMatch(/light scheme: muted #aaaaaa on background #ffffff \(labels and hints\) has a contrast of 2\.32:1/)
  })

  it('is part of lintDefinition, which also reports a theme it cannot read; defineChat only asks for an object', () => {
    const base = { id: 'themed', chat: {}, conversation: { initial: 'a' as const, states: { a: {} }, routes: [], fallback: { response: 'hi' } } }
    expect(lintDefinition(defineChat({ ...base, theme: { colors: { text: '#eeeeee' } } })).map((w) => w.code)).toEqual(['theme_contrast', 'theme_contrast'])
    expect(lintDefinition(defineChat({ ...base, theme: { colors: { text: 'black' } } })).map((w) => [w.code, w.path.join('.')])).toEqual([['invalid_theme_color', 'theme.colors.text']])
    expect(lintDefinition(defineChat({ ...base, theme: {} }))).toEqual([])
    expect(configError(() => defineChat({ ...base, theme: 'dark' as never })).path).toEqual(['theme'])
  })
})

describe('the stylesheet mapping', () => {
  const stylesheet = readFileSync(new URL('../../renderers/react/styles.css', import.meta.url), 'utf8')
  const declared = (block: string): Record<string, string> => Object.fromEntries([...block.matchAll(/(--chatrail-[a-z-]+):\s*([^;]+);/g)].map((m) => [m[1], (m[2] ?? '').trim()]))

  it('maps the default theme onto the stylesheet’s own values, light and dark (they cannot drift apart)', () => {
    const light = declared(stylesheet.slice(stylesheet.indexOf('[data-chatrail-chat] {'), stylesheet.indexOf('@media (prefers-color-scheme: dark)')))
    const darkStart = stylesheet.indexOf('[data-chatrail-chat].chatrail-dark')
    const dark = declared(stylesheet.slice(darkStart, stylesheet.indexOf('}', darkStart)))
    for (const [scheme, values] of [['light', light], ['dark', dark]] as const) {
      const mapped = toChatCssVariables(defaultChatTheme, scheme)
      for (const name of ['--chatrail-bg', '--chatrail-surface', '--chatrail-border', '--chatrail-fg', '--chatrail-muted', '--chatrail-accent', '--chatrail-accent-fg', '--chatrail-danger']) {
        expect([scheme, name, mapped[name]]).toEqual([scheme, name, values[name]])
      }
    }
    expect(toChatCssVariables(defaultChatTheme)['--chatrail-font']).toBe(light['--chatrail-font'])
    expect(toChatCssVariables(defaultChatTheme)['--chatrail-radius']).toBe(light['--chatrail-radius'])
    expect(toChatCssVariables(defaultChatTheme)['--chatrail-gap']).toBe(light['--chatrail-gap'])
  })

  it('is memoized per theme and scheme, validates what it is given, and scopes light and dark rules', () => {
    const input = { colors: { accent: '#123456' }, fontFamily: 'Inter' }
    expect(toChatCssVariables(input)).toBe(toChatCssVariables(input))
    expect(toChatCssVariables(input)['--chatrail-font']).toMatch(/^"Inter", system-ui/)
    const css = chatThemeCss(input)
    expect(css).toContain('[data-chatrail-chat][data-chatrail-chat]{--chatrail-bg:#ffffff;')
    expect(css).toContain('--chatrail-accent:#123456')
    expect(css).toContain('@media (prefers-color-scheme: dark){[data-chatrail-chat][data-chatrail-chat]:not(.chatrail-light, .chatrail-light *){')
    expect(css).toContain('[data-chatrail-chat][data-chatrail-chat].chatrail-dark, .chatrail-dark [data-chatrail-chat][data-chatrail-chat]{')
    // a value that could close the rule never gets in: it is not a token
    expect(() => chatThemeCss({ colors: { accent: '#fff;}body{display:none' } })).toThrow(ChatrailConfigError)
  })

  it('reaches the chatrail serve page resolved, and a bad theme stops it with the path', () => {
    const base = { id: 'themed', chat: {}, conversation: { initial: 'a' as const, states: { a: {} }, routes: [], fallback: { response: 'hi' } } }
    expect(pageConfigOf(defineChat({ ...base, theme: { colors: { accent: '#123456' } } })).theme?.colors.accent).toBe('#123456')
    expect(pageConfigOf(defineChat(base)).theme).toBeUndefined()
    expect(configError(() => pageConfigOf(defineChat({ ...base, theme: { colors: { accent: 'blue' } } }))).path.join('.')).toBe('theme.colors.accent')
  })
})
