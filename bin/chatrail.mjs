#!/usr/bin/env node
// The published entry: runs the built CLI. In a checkout, `npm start` runs the TypeScript source through tsx.
import('../dist/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('chatrail: dist/ is missing. Run `npm run build` first (or `npm start` in a checkout).')
    process.exit(1)
  }
  throw error
})
