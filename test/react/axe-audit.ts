import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

/** axe-core's own build, injected into a page once (the Chromium suites' accessibility audit). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeResult { violations: Array<{ id: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }

/** axe-core's violations on the page as it is now, one line each, prefixed with `label` (the state audited). */
export async function audit(target: Page, label: string): Promise<string[]> {
  if (!await target.evaluate(() => 'axe' in window)) await target.addScriptTag({ content: axeSource })
  const result = await target.evaluate(() => (window as unknown as { axe: { run: (context: Document) => Promise<AxeResult> } }).axe.run(document))
  return result.violations.flatMap((violation) => violation.nodes.map((node) => `${label}: ${violation.id} at ${node.target.join(' ')} — ${node.failureSummary ?? ''}`))
}
