import type { Palette } from './color.js'

/**
 * Colours the plain reports of `chatrail test` and `chatrail explain` line by line, after they
 * are formatted (the formatters stay pure and colourless, as tests and `defineConversationTests`
 * read them): a passing mark green, a failure red, a warning yellow, routes that do not answer
 * dim, hints and traces dim, the closing PASS/FAIL bold (and, for `explain`, its heading line). With colour off the text is unchanged.
 */
export function paintReport(text: string, paint: Palette, options: { heading?: boolean } = {}): string {
  if (!paint.enabled) return text
  return text
    .split('\n')
    .map((line, index) => (index === 0 && options.heading === true ? paint.bold(line) : paintLine(line, paint)))
    .join('\n')
}

function paintLine(line: string, paint: Palette): string {
  const mark = /^(\s*)([✓✗⚠·])(.*)$/u.exec(line)
  if (mark) {
    const [, indent = '', symbol = '', rest = ''] = mark
    if (symbol === '✓') return `${indent}${paint.green(symbol)}${rest}`
    if (symbol === '✗') return `${indent}${paint.red(`${symbol}${rest}`)}`
    if (symbol === '⚠') return `${indent}${paint.yellow(symbol)}${rest}`
    return paint.dim(line)
  }
  if (line.startsWith('PASS')) return paint.bold(paint.green('PASS')) + line.slice(4)
  if (line.startsWith('FAIL')) return paint.bold(paint.red('FAIL')) + line.slice(4)
  if (/^\s+(?:hint|trace):/.test(line)) return paint.dim(line)
  return line
}
