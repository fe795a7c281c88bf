// The `chatrail/tools` entry point: development tools over a definition, kept out of the `chatrail`
// entry so an app that only runs sessions does not ship them (its budget is 15 kB gzip). The session
// still lints in development by itself (session.ts; dropped from production bundles).
// The full definition check, whatever NODE_ENV: `defineChat` runs it in development only (issue 32).
export { assertValidDefinition } from './definition-check.js'
export { lintDefinition } from './lint.js'
export type { LintWarning } from './lint.js'
export { toDot, toMermaid } from './mermaid.js'
