import { defineConfig } from 'vitest/config'
import base, { endToEndSuites } from './vitest.config.js'

/**
 * `npm run test:unit`: the inner loop. Every suite but the end-to-end ones (real agent CLIs,
 * Chromium, pseudo-terminals, Postgres, the package build), and no global setup: it installs nothing.
 * (Built from the base config's fields, not mergeConfig, which would concatenate the arrays.)
 */
export default defineConfig({
  test: {
    ...base.test,
    exclude: [...(base.test?.exclude ?? []), ...endToEndSuites],
    globalSetup: [],
  },
})
