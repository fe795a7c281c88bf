import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { toMermaid } from '../../src/conversation/mermaid.js'
import { supportBot } from '../../examples/support-bot/definition.js'

/**
 * Rewrites the support-bot diagram in docs/conversation.md § Diagrams from the definition as it is
 * now (test/tools/diagram-docs.test.ts fails until this runs after a change to the support bot):
 * `npx tsx test/tools/update-diagram-docs.ts`.
 */
const file = resolve('docs/conversation.md')
const docs = readFileSync(file, 'utf8')
const block = /(<!-- support-bot diagram -->\n```mermaid\n)[\s\S]*?(```\n<!-- \/support-bot diagram -->)/
if (!block.test(docs)) throw new Error(`${file} has no <!-- support-bot diagram --> block to update`)
writeFileSync(file, docs.replace(block, (_, open: string, close: string) => `${open}${toMermaid(supportBot)}${close}`))
console.log(`updated the support-bot diagram in ${file}`)
