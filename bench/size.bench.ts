import { gzipSync } from 'node:zlib'
import { bench, describe } from 'vitest'
import { formatSizes, measureAll } from '../scripts/size.js'

// Bundle sizes of the published entries (scripts/size.ts): the figures are in the bench names and
// printed after the run, with the ratio of each entry to the `chatrail` entry measured here.
const sizes = await measureAll()
// Printed here, not in an afterAll: vitest's bench mode does not always run afterAll.
console.log(`\n${formatSizes(sizes)}\n`)

describe('entry sizes (minified, gzip -9)', () => {
  for (const size of sizes) {
    bench(`gzip ${size.name}: ${(size.gzipBytes / 1000).toFixed(2)} kB gzip of ${(size.bytes / 1000).toFixed(2)} kB`, () => {
      gzipSync(size.contents, { level: 9 })
    }, { iterations: 20 })
  }
})
