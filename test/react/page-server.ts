import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/**
 * The harness the Chromium suites of chatrail/react share: a test page built with esbuild as an
 * app's production build would be (ESM, code splitting, `NODE_ENV` "production"), served by one
 * node:http server beside the chat handler, so the page and `/api/chat` share an origin as they do
 * behind `chatrail serve`.
 */

export interface TestPageOptions {
  /** The page's entry module (`./x-page/main.tsx`, as a URL beside the suite). */
  entry: URL
  /** Where the build goes (under test-output/), ending in `/`. */
  outdir: string
  /** The whole index.html; it loads `/main.js` (and `/main.css` when the entry imports styles). */
  html: string
}

export async function buildTestPage({ entry, outdir, html }: TestPageOptions): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true, format: 'esm', splitting: true, outdir, platform: 'browser', target: 'es2022', jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' }, logLevel: 'warning',
  })
  mkdirSync(outdir, { recursive: true })
  writeFileSync(`${outdir}index.html`, html)
}

export interface TestPageServer {
  origin: string
  close: () => Promise<void>
}

const contentTypes: Record<string, string> = { html: 'text/html', css: 'text/css', js: 'text/javascript' }

/** Serves `pageDir`'s files (flat names only: nothing outside it is reachable) and `api` at /api/chat. */
export async function serveTestPage(pageDir: string, api: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<TestPageServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    if (path === '/api/chat') return void api(req, res)
    const file = path === '/' ? 'index.html' : path.slice(1)
    if (!/^[\w.-]+$/.test(file)) return void res.writeHead(404).end()
    try {
      const body = readFileSync(`${pageDir}${file}`)
      const type = contentTypes[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
