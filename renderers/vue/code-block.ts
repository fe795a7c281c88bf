import { defineComponent, h, ref, watchEffect } from 'vue'
import type { CodeToken } from '../../src/view/code-highlight.js'

/** The highlighter (chatrail/view's code-highlight.ts: lowlight, no framework in it), a chunk of its own, loaded once. */
type Highlight = (code: string, language: string) => CodeToken[] | undefined
let loaded: Highlight | undefined
let loading: Promise<Highlight | undefined> | undefined
const loadHighlight = (): Promise<Highlight | undefined> => {
  loading ??= import('../../src/view/code-highlight.js').then((module) => (loaded = module.highlightCode), () => undefined)
  return loading
}

/**
 * A fenced block's code (in the markdown chunk): plain text at once, highlighted once the
 * highlighter chunk is in. That chunk is requested only when a block with a language renders; a
 * failed load or an unknown language stays plain. Tokens are text nodes, never HTML.
 */
export const CodeBlock = defineComponent({
  name: 'CodeBlock',
  props: { code: { type: String, required: true }, language: { type: String, required: true } },
  setup(props) {
    const highlight = ref<Highlight | undefined>(loaded)
    watchEffect(() => {
      if (props.language !== '' && highlight.value === undefined) void loadHighlight().then((done) => { highlight.value = done })
    })
    return () => {
      const tokens = props.language === '' ? undefined : highlight.value?.(props.code, props.language)
      if (tokens === undefined) return h('pre', h('code', props.code))
      return h('pre', { 'data-chatrail-highlighted': '' }, h('code', tokens.map((token, index) => (token.className === '' ? token.text : h('span', { key: index, class: token.className }, token.text)))))
    }
  },
})
