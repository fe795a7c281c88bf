import { fileURLToPath } from 'node:url'
import { contentTypeOf, type PageFile, type PageFiles } from './page-files.js'

/**
 * Builds the `chatrail serve` page (renderers/serve-page: chatrail/react in remote mode) for the
 * browser with esbuild, in memory. Two callers: `npm run build` writes the result to
 * dist/serve-page (so the published CLI never needs esbuild), and `chatrail serve` run from a
 * checkout builds it on start (esbuild is a devDependency there). Code splitting keeps
 * chatrail/react's lazily loaded parts (the message UI with markdown, the dialog UI) in their own
 * `assets/chunk-*.js` files, loaded when first needed, as in the Vite-built React example.
 */

interface EsbuildOutputFile { path: string; contents: Uint8Array }
interface Esbuild {
  build: (options: Record<string, unknown>) => Promise<{ outputFiles: EsbuildOutputFile[] }>
}

const indexHtml = (title: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" type="image/svg+xml" href="./favicon.svg" />
    <link rel="stylesheet" href="./assets/page.css" />
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="./assets/page.js"></script>
  </body>
</html>
`

export interface BuildServePageOptions {
  minify?: boolean
  /** Another page's entry module (a test page, the devtools page); default renderers/serve-page/main.tsx. */
  entry?: string
  /** The document's title before the page sets its own; default `chatrail serve`. */
  title?: string
}

export async function buildServePage(options: BuildServePageOptions = {}): Promise<PageFiles> {
  // A variable specifier keeps tsup from bundling esbuild into the CLI: the published CLI serves
  // the prebuilt page and never loads this module.
  const specifier = 'esbuild'
  const esbuild = (await import(specifier)) as Esbuild
  const pageRoot = fileURLToPath(new URL('../../../renderers/serve-page/', import.meta.url))
  const outdir = '/serve-page-out/assets'
  const result = await esbuild.build({
    entryPoints: { page: options.entry ?? `${pageRoot}main.tsx` },
    bundle: true,
    splitting: true,
    write: false,
    outdir,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: options.minify ?? true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  const files = new Map<string, PageFile>()
  files.set('/index.html', { contents: new TextEncoder().encode(indexHtml(options.title ?? 'chatrail serve')), contentType: contentTypeOf('.html') })
  for (const file of result.outputFiles) {
    const path = `/assets/${file.path.slice(outdir.length + 1)}`
    files.set(path, { contents: file.contents, contentType: contentTypeOf(path) })
  }
  return files
}

/**
 * The devtools page `chatrail serve` mounts at /devtools (renderers/devtools/page: chatrail/devtools'
 * `<ChatDevtools>`), built the same way; the diagram (dagre) is its own lazy chunk. Its HTML names
 * its assets relatively (`./assets/page.js`), so the same files work under any mount path.
 */
export function buildDevtoolsPage(options: Omit<BuildServePageOptions, 'entry' | 'title'> = {}): Promise<PageFiles> {
  const entry = fileURLToPath(new URL('../../../renderers/devtools/page/main.tsx', import.meta.url))
  return buildServePage({ ...options, entry, title: 'chatrail devtools' })
}
