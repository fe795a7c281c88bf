import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ChatrailError } from '../../contract/errors.js'
import { contentTypeOf, type PageFile, type PageFiles } from './page-files.js'

/**
 * Where the chat page comes from. The published package ships it prebuilt in dist/serve-page
 * (`npm run build` writes it next to dist/cli.js), so the CLI reads files and needs no bundler.
 * Run from a checkout (src/cli through tsx) there is no dist: the page is built from
 * renderers/serve-page with esbuild, a devDependency, in memory, once per start.
 */
export async function loadServePage(): Promise<{ files: PageFiles; source: 'prebuilt' | 'built' }> {
  const prebuilt = fileURLToPath(new URL('./serve-page/', import.meta.url))
  if (existsSync(join(prebuilt, 'index.html'))) return { files: readDirectory(prebuilt), source: 'prebuilt' }
  const pageSource = fileURLToPath(new URL('../../../renderers/serve-page/main.tsx', import.meta.url))
  if (!existsSync(pageSource)) {
    throw new ChatrailError({
      code: 'SERVE_PAGE_MISSING',
      message: `the chat page is missing: neither ${prebuilt} nor ${pageSource} exists`,
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
