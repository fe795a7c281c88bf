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
  // beside the running module: dist/serve-page when this is the built CLI (dist/cli.js), nothing
  // under src/ (a checkout builds the page from its sources, never serves a stale build)
  const prebuilt = join(moduleDir, 'serve-page')
  if (existsSync(join(prebuilt, 'index.html'))) return { files: readDirectory(prebuilt), source: 'prebuilt' }
  // the sources are found from the package's root, wherever the running module sits in it (the
  // built CLI's `../../..` pointed above the package)
  const root = packageRoot(moduleDir)
  const pageSource = root === undefined ? undefined : join(root, 'renderers', 'serve-page', 'main.tsx')
  if (pageSource === undefined || !existsSync(pageSource)) {
    throw new ChatrailError({
      code: 'SERVE_PAGE_MISSING',
      message: `the chat page is missing: ${prebuilt}${sep}index.html does not exist${pageSource === undefined ? ` and no chatrail package.json is above ${moduleDir}` : `, nor does ${pageSource}`}`,
      hint: 'Reinstall chatrail, or in a checkout run `npm run build`.',
    })
  }
  const { buildServePage } = await import('./build-page.js')
  return { files: await buildServePage(), source: 'built' }
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
