import { gzipSync } from 'node:zlib'
import { bench, describe } from 'vitest'
import { featureApps, formatApps, measureApps, targetApps } from '../scripts/app-size.js'
import { builtPackage } from '../test/support/built-package.js'

// Issue 32 (3): what a browser app pays, all-in. Small apps bundled from the built package (one
// build shared with the package tests, test/support/built-package.ts) with esbuild as an app's
// production build does (scripts/app-size.ts): the initial load in gzip, lazy chunks apart, against
// the targets; then what each feature adds to the minimal app when it is used.
// docs/performance.md § What a browser app pays has the table and the reasons behind it.
const packageRoot = await builtPackage()
const targets = await measureApps(packageRoot, targetApps)
const minimal = targets[0]
const features = await measureApps(packageRoot, featureApps)
// Printed here, not in an afterAll: vitest's bench mode does not always run afterAll.
console.log(`\n${formatApps(targets)}\n\nwhat a feature adds to the minimal app when it is used:\n${formatApps(features, minimal)}\n`)

describe('what a browser app pays (gzip, all-in, React external)', () => {
  for (const size of targets) {
    const target = size.targetBytes === undefined ? '' : `, target ≤ ${(size.targetBytes / 1000).toFixed(1)} kB`
    bench(`${size.name}: ${(size.initialGzipBytes / 1000).toFixed(1)} kB initial, ${(size.lazyGzipBytes / 1000).toFixed(1)} kB lazy${target}`, () => {
      gzipSync(size.initialCode, { level: 9 })
    }, { iterations: 5 })
  }
})
