import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The example imports chatrail from the repository's sources (relative paths), so no build of the
// package is needed first. Output goes to ./dist (git-ignored); the Chromium suites build it into
// test-output/example-builds/ instead (test/support/example-build.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  // The app bundle (React, React DOM, zod, chatrail) plus the chunks Vite splits off for
  // chatrail/react's lazily loaded message UI (assets/message-ui-*.js, with markdown-to-jsx) and
  // agent-dialog UI (assets/dialog-ui-*.js).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, reportCompressedSize: false, chunkSizeWarningLimit: 1024 },
})
