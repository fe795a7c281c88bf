import { ensureAgentClis } from './agent-clis.js'

/**
 * vitest's global setup for `npm test` (vitest.config.ts): the full suite drives the real agent CLIs,
 * so it installs them first (once; test/agents-e2e). `npm run test:unit` (the `unit` project) runs
 * without them and never installs anything. CHATRAIL_NO_AGENT_CLIS=1 skips the install for a run
 * that excludes the end-to-end files itself.
 */
export default function setup(): void {
  if (process.env.CHATRAIL_NO_AGENT_CLIS === '1') return
  ensureAgentClis()
}
