import { createLowlight } from 'lowlight'
import bash from 'highlight.js/lib/languages/bash'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import go from 'highlight.js/lib/languages/go'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import python from 'highlight.js/lib/languages/python'
import rust from 'highlight.js/lib/languages/rust'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'

/**
 * The syntax highlighter chunk, shared by the web bindings (chatrail/react's code-highlight-loader.ts,
 * chatrail/vue's code-block.ts and chatrail/svelte's markdown-kit.ts load it by dynamic import when
 * the first fenced block with a language renders; it is no part of chatrail/view's entry): lowlight (highlight.js grammars) with twelve common languages. It returns a
 * tree of tokens, never HTML, so the code's text reaches the page only as text nodes.
 */

const lowlight = createLowlight({ bash, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml })
lowlight.registerAlias({ bash: ['sh', 'shell', 'zsh'], javascript: ['js', 'jsx', 'mjs'], typescript: ['ts', 'tsx'], xml: ['html', 'svg'], python: ['py'], yaml: ['yml'], rust: ['rs'] })

/** One highlighted run: its text and the highlight.js classes (`hljs-keyword`, …), empty for plain text. */
export interface CodeToken {
  text: string
  className: string
}

interface HastNode {
  type: string
  value?: string
  properties?: { className?: unknown }
  children?: HastNode[]
}

/** Pure: the tree's text runs in order, each with the classes of the spans around it. */
function flatten(node: HastNode, classes: readonly string[], out: CodeToken[]): void {
  if (node.type === 'text') { out.push({ text: node.value ?? '', className: classes.join(' ') }); return }
  const own = Array.isArray(node.properties?.className) ? node.properties.className.map(String) : []
  for (const child of node.children ?? []) flatten(child, [...classes, ...own], out)
}

/**
 * Pure: `code` as tokens in `language`, or undefined for a language not registered (the block stays
 * plain). The tokens' texts joined are exactly `code`.
 */
export function highlightCode(code: string, language: string): CodeToken[] | undefined {
  const name = language.toLowerCase()
  if (!lowlight.registered(name)) return undefined
  const tokens: CodeToken[] = []
  flatten(lowlight.highlight(name, code) as HastNode, [], tokens)
  return tokens
}
