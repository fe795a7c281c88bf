import { fileURLToPath } from 'node:url'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vite'

// The example imports chatrail from the repository's sources (relative paths), so no build of the
// package is needed first. Output goes to ./dist (git-ignored); test/vue/example-browser.test.ts
// builds it into test-output/example-builds/ (test/support/example-build.ts). @vitejs/plugin-vue compiles App.vue; chatrail/vue itself needs no plugin (its
// components are render functions).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  plugins: [vue()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, reportCompressedSize: false, chunkSizeWarningLimit: 1024 },
})
