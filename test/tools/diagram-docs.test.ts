import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toMermaid } from '../../src/conversation/mermaid.js'
import { supportBot } from '../../examples/support-bot/definition.js'

/**
 * docs/conversation.md § Diagrams embeds the support bot's diagram. It is generated, so it must
 * stay what `chatrail graph examples/support-bot/definition.ts` prints today: after changing the
 * support bot, run `npx tsx test/tools/update-diagram-docs.ts`.
 */
describe('the support-bot diagram in docs/conversation.md', () => {
  it('is what chatrail graph draws for the support bot today', () => {
    const docs = readFileSync(resolve('docs/conversation.md'), 'utf8')
    const block = /<!-- support-bot diagram -->\n```mermaid\n([\s\S]*?)```\n<!-- \/support-bot diagram -->/.exec(docs)?.[1]
    expect(block, 'docs/conversation.md has no <!-- support-bot diagram --> block').toBeDefined()
    expect(block, 'stale: regenerate with `npx tsx test/tools/update-diagram-docs.ts`').toBe(toMermaid(supportBot))
  })
})
