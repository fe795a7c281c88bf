/**
 * The `chatrail serve` page's icon: a small SVG (a speech bubble on a rail), served at
 * `/favicon.svg` (the page's `<link rel="icon">`) and at `/favicon.ico`, where browsers and tools
 * that ignore the link ask, so a page load never logs a 404. SVG under the `.ico` name is fine:
 * browsers go by the content type.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f6feb"/><path d="M8 9h16a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2z" fill="#fff"/><path d="M10 14h12M10 17h8" stroke="#1f6feb" stroke-width="2" stroke-linecap="round"/></svg>
`

export const FAVICON_PATHS: ReadonlySet<string> = new Set(['/favicon.ico', '/favicon.svg'])

export const FAVICON = { contents: new TextEncoder().encode(FAVICON_SVG), contentType: 'image/svg+xml' } as const
