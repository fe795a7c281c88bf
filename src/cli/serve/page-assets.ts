import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ChatrailError } from '../../contract/errors.js'
import { packageRoot } from '../version.js'
import { contentTypeOf, type PageFile, type PageFiles } from './page-files.js'

/**
 * Where the chat page comes from. The published package ships it prebuilt in dist/serve-page
 * (`npm run build` writes it next to dist/cli.js), so the CLI reads files and needs no bundler.
 * Run from a checkout (src/cli through tsx) there is no dist: the page is built from
 * renderers/serve-page with esbuild, a devDependency, in memory, once per start.
 */
export async function loadServePage(moduleDir: string = dirname(fileURLToPath(import.meta.url))): Promise<{ files: PageFiles; source: 'prebuilt' | 'built' }> {
  return loadPage(moduleDir, { folder: 'serve-page', source: ['renderers', 'serve-page', 'main.tsx'], what: 'the chat page', build: async () => (await import('./build-page.js')).buildServePage() })
}

/** The devtools page (`/devtools`), from dist/devtools-page or, in a checkout, built from renderers/devtools/page. */
export async function loadDevtoolsPage(moduleDir: string = dirname(fileURLToPath(import.meta.url))): Promise<{ files: PageFiles; source: 'prebuilt' | 'built' }> {
  return loadPage(moduleDir, { folder: 'devtools-page', source: ['renderers', 'devtools', 'page', 'main.tsx'], what: 'the devtools page', build: async () => (await import('./build-page.js')).buildDevtoolsPage() })
}

interface PageSource {
  /** Its folder beside the built CLI (dist/<folder>). */
  folder: string
  /** Its entry module below the package root, for a checkout. */
  source: readonly string[]
  what: string
  build: () => Promise<PageFiles>
}

async function loadPage(moduleDir: string, page: PageSource): Promise<{ files: PageFiles; source: 'prebuilt' | 'built' }> {
  // beside the running module: dist/<folder> when this is the built CLI (dist/cli.js), nothing
  // under src/ (a checkout builds the page from its sources, never serves a stale build)
  const prebuilt = join(moduleDir, page.folder)
  if (existsSync(join(prebuilt, 'index.html'))) return { files: readDirectory(prebuilt), source: 'prebuilt' }
  // the sources are found from the package's root, wherever the running module sits in it (the
  // built CLI's `../../..` pointed above the package)
  const root = packageRoot(moduleDir)
  const pageSource = root === undefined ? undefined : join(root, ...page.source)
  if (pageSource === undefined || !existsSync(pageSource)) {
    throw new ChatrailError({
      code: 'SERVE_PAGE_MISSING',
      message: `${page.what} is missing: ${prebuilt}${sep}index.html does not exist${pageSource === undefined ? ` and no chatrail package.json is above ${moduleDir}` : `, nor does ${pageSource}`}`,
      hint: 'Reinstall chatrail, or in a checkout run `npm run build`.',
    })
  }
  return { files: await page.build(), source: 'built' }
}

/** Every file below `root`, by URL path. */
export function readDirectory(root: string): PageFiles {
  const files = new Map<string, PageFile>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else {
        const url = `/${relative(root, path).split(sep).join('/')}`
        files.set(url, { contents: readFileSync(path), contentType: contentTypeOf(url) })
      }
    }
  }
  walk(root)
  return files
}
