import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildServePage } from '../src/cli/serve/build-page.js'

// `npm run build`, after tsup: the `chatrail serve` page, prebuilt into dist/serve-page next to
// dist/cli.js, so the published CLI serves files and never needs esbuild (src/cli/serve/page-assets.ts).
const outDir = process.argv[2] ?? fileURLToPath(new URL('../dist/serve-page/', import.meta.url))
rmSync(outDir, { recursive: true, force: true })
const files = await buildServePage()
for (const [path, file] of files) {
  const target = join(outDir, path)
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, file.contents)
}
process.stdout.write(`serve page: ${[...files.keys()].join(', ')} → ${outDir}\n`)
