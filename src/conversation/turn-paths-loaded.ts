// What a turn loads on first use of a rare path (turn-paths.ts): one module, so a bundler
// splits one lazy chunk; it shares no module with the session's chunk (its helpers come in the kit).
export { agenticGenerator } from './agentic-generator.js'
export { timedOut } from './route-timeout.js'
export { disposedTurn, routeFailedTurn } from './turn-failures.js'
