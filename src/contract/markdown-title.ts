/**
 * The first heading's text, else the first non-blank line, with inline markup and a list marker
 * removed: what names a plan (an agent's markdown) in one line. Pure and parser-free, so the
 * monitor's table and the renderers name a plan the same way.
 */
export function markdownTitle(source: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(source)?.[1]
  const line = heading ?? source.split('\n').find((candidate) => candidate.trim() !== '') ?? ''
  return line.replace(/[*_`~]/g, '').replace(/^\s*(?:[-+*]|\d+[.)])\s+/, '').trim()
}
