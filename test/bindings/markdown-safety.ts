import fc from 'fast-check'

/**
 * The safety rule every web binding's markdown renderer keeps (chatrail/react's, and the Vue and
 * Svelte ones that draw markdown-to-jsx's output the same way), as a property over rendered HTML:
 * whatever the model writes, the page gets only the renderer's own elements, raw HTML only as
 * text, links only to http(s) URLs and only with `rel="noopener noreferrer"`, and no image.
 */

/** Pieces of model output, harmless and hostile, that the arbitrary strings together. */
const PIECES = [
  'Some text', '**bold**', '*it*', '~~gone~~', '`code`', '# Title', '### Deep', '- item', '1. first', '> quoted',
  '[docs](https://example.com/docs)', '[bad](javascript:alert(1))', '[data](data:text/html,<b>x</b>)', '[vb](vbscript:msgbox(1))',
  '![pixel](https://example.com/p.png)', '![bad](javascript:alert(1))', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">raw link</a>', '<b onclick="alert(1)">raw</b>', '<iframe src="https://example.com"></iframe>',
  '| a | b |\n| --- | --- |\n| 1 | <i>2</i> |', '```js\nconst x = "<script>"\n```', '```\nplain\n```', '"quotes" & <angles>',
  'https://example.com/auto', '- [x] done', '---', '[ref][r]\n\n[r]: javascript:alert(1)',
]

/** Markdown sources made of those pieces, joined by spaces, line breaks or blank lines. */
export const modelMarkdown = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(' ', '\n', '\n\n')), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.map(([piece, gap]) => piece + gap).join(''))

/** The elements a markdown renderer may produce (its code block's copy button and icon included). */
const ALLOWED = new Set(['div', 'p', 'span', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 's', 'mark', 'sub', 'sup', 'kbd', 'code', 'pre', 'a', 'ul', 'ol', 'li', 'input', 'blockquote', 'br', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'button', 'svg', 'path'])

/** What is wrong with `html` by the rule above (empty when it keeps it). */
export function markdownSafetyProblems(html: string): string[] {
  const problems: string[] = []
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '')
  for (const [, name, attributes] of withoutComments.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    const tag = (name ?? '').toLowerCase()
    if (!ALLOWED.has(tag)) problems.push(`element <${tag}>`)
    if (/\son[a-z]+\s*=/i.test(attributes ?? '')) problems.push(`an event handler on <${tag}>: ${attributes ?? ''}`)
    for (const [, url] of (attributes ?? '').matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      if (!/^https?:\/\//.test(url ?? '')) problems.push(`a URL that is not http(s): ${url ?? ''}`)
    }
    if (tag === 'a' && !/\srel="noopener noreferrer"/.test(attributes ?? '')) problems.push(`a link without rel="noopener noreferrer": ${attributes ?? ''}`)
  }
  return problems
}
