import { defineComponent, h } from 'vue'
import type { Component, PropType } from 'vue'
import { RuleType, astToJSX, parser } from 'markdown-to-jsx/vue'
import type { VueOptions } from 'markdown-to-jsx/vue'
import { headingLevels } from '../../src/view/heading-levels.js'
import { messageLabels } from '../../src/view/message-labels.js'
import type { MessageLabels } from '../../src/view/message-labels.js'
import { CodeBlock } from './code-block.js'

/**
 * The markdown chunk of chatrail/vue (loaded the first time an answer or a plan renders,
 * markdown.ts): markdown-to-jsx's Vue output, configured as chatrail/react's renderer. VNodes only,
 * never an HTML string: raw HTML stays visible as text, a link the library's sanitizer rejects
 * (`javascript:`, `vbscript:`, `data:`) is plain text, an image is a link (an answer cannot make
 * the page fetch anything), headings get no `id` (two answers must not clash), tables scroll inside
 * the bubble, code blocks get a language label, a copy button and the lazy highlighter.
 */
export const MarkdownContent = defineComponent({
  name: 'MarkdownContent',
  inheritAttrs: false,
  props: {
    source: { type: String, required: true },
    /** The level the document's biggest heading becomes (under the page's h1 and the chat's h2); smaller ones follow without gaps (max 6). */
    headingLevel: { type: Number, required: true },
    /** A reply still streaming: an unfinished `**bold` or link is not shown half-parsed. */
    streaming: Boolean,
    /** The entry's copy button (this chunk imports nothing from the entry). */
    copyButton: { type: Object as PropType<Component>, required: true },
    labels: { type: Object as PropType<Pick<MessageLabels, 'copyCode' | 'copyCodeIn' | 'copied'>>, default: undefined },
  },
  setup(props) {
    return () => {
      const words = props.labels ?? messageLabels
      const options: VueOptions = { disableParsingRawHTML: true, optimizeForStreaming: props.streaming, wrapper: null, forceBlock: true }
      const ast = parser(props.source, options)
      // headings take the outline's next levels without gaps, as in every binding (chatrail/view's rule)
      const levels = headingLevels(ast, RuleType.heading, props.headingLevel)
      const renderRule: VueOptions['renderRule'] = (next, node, children, state) => {
        const key = state.key
        switch (node.type) {
          case RuleType.heading:
            return h(`h${levels.get(node.level) ?? 6}`, { key }, children(node.children))
          case RuleType.codeBlock: {
            const lang = node.lang?.trim() ?? ''
            return h('div', { key, 'data-chatrail-code': '' }, [
              h('div', { 'data-chatrail-code-header': '' }, [
                // a fence without a language has no label (it is not "text")
                lang === '' ? null : h('span', { 'data-chatrail-code-lang': '' }, lang),
                h(props.copyButton, { text: node.text, label: lang === '' ? words.copyCode : words.copyCodeIn(lang), copiedLabel: words.copied }),
              ]),
              h(CodeBlock, { code: node.text, language: lang }),
            ])
          }
          case RuleType.link:
            return node.target === null
              ? h('span', { key }, children(node.children))
              : h('a', { key, href: node.target, title: node.title, target: '_blank', rel: 'noopener noreferrer' }, children(node.children))
          case RuleType.image:
            return node.target === null
              ? h('span', { key }, node.alt)
              : h('a', { key, href: node.target, target: '_blank', rel: 'noopener noreferrer' }, node.alt || node.target)
          case RuleType.table:
            // wide tables scroll sideways inside the bubble, never the page; focusable, so keys can scroll them too
            return h('div', { key, 'data-chatrail-table': '', tabindex: 0 }, next() ?? undefined)
          default:
            return next()
        }
      }
      return h('div', { 'data-chatrail-markdown': '' }, astToJSX(ast, { ...options, renderRule }) ?? undefined)
    }
  },
})
