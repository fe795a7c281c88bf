// A process asking for the PGlite template, for test/store/pglite-template.test.ts (which races
// several of these on one TMPDIR). Prints the template it got as one JSON line.
import { pgliteTemplate } from '../../support/pglite-template.js'

process.stdout.write(`${JSON.stringify(await pgliteTemplate())}\n`)
