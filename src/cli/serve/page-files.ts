/** The built chat page: its files by URL path (`/index.html`, `/assets/page.js`, …). */
export interface PageFile {
  readonly contents: Uint8Array
  readonly contentType: string
}

export type PageFiles = ReadonlyMap<string, PageFile>

export const PAGE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf('.')
  return PAGE_CONTENT_TYPES[dot === -1 ? '' : path.slice(dot)] ?? 'application/octet-stream'
}
