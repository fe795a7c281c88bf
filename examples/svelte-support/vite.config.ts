import { fileURLToPath } from 'node:url'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'vite'

// The example imports chatrail from the repository's sources (relative paths), so no build of the
// package is needed first; an app imports `chatrail/svelte`, whose `svelte` export condition hands
// this same plugin the package's `.svelte` files. Output goes to ./dist (git-ignored); the browser
// test builds it into test-output/example-builds/ (test/support/example-build.ts). The chunks Vite splits off are chatrail/svelte's lazily loaded parts (the
// message UI, the dialog card, the component views).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  plugins: [svelte()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, reportCompressedSize: false, chunkSizeWarningLimit: 1024 },
})
