// @vitest-environment happy-dom
import { createApp, h } from 'vue'
import type { App } from 'vue'
import { afterEach, describe, expect, it } from 'vitest'
import { ChatSession } from '../../renderers/vue/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { componentDefinition } from '../react/component-page/component-definition.js'

// chatrail/vue's component parts on happy-dom, with the component browser test's workflow: `/lost`
// answers with a table, a component only the server's registry knows and a choice list. The page's
// definition holds the standard catalog only, so the unknown key shows its fallback summary, the
// rule chatrail/react follows; a choice is one interaction however many clicks.

let app: App | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
  document.body.innerHTML = ''
})

describe('chatrail/vue component parts', () => {
  it('draws the standard views, shows an unknown key\'s fallback summary, and sends one interaction for two clicks', async () => {
    const adapter = scriptedAdapter(['the agent'])
    const root = document.createElement('div')
    document.body.append(root)
    app = createApp({ render: () => h(ChatSession, { definition: componentDefinition(adapter, { page: true }), options: { lint: false } }) })
    app.mount(root)
    const box = root.querySelector<HTMLTextAreaElement>('[data-chatrail-input]')
    if (box === null) throw new Error('no composer')
    box.value = '/lost'
    box.dispatchEvent(new Event('input'))
    await expect.poll(() => root.querySelector<HTMLButtonElement>('[data-chatrail-send]')?.disabled).toBe(false)
    root.querySelector<HTMLButtonElement>('[data-chatrail-send]')?.click()
    await expect.poll(() => root.querySelector('[role="listbox"]')).not.toBeNull()
    expect(root.querySelector('[role="region"][aria-label="Your orders"] table caption')?.textContent).toBe('Your orders')
    expect([...root.querySelectorAll('th')].map((cell) => cell.textContent)).toEqual(['Order', 'Item', 'Total'])
    const fallback = root.querySelector('[data-chatrail-component-fallback][data-chatrail-component-key="order-card"]')
    expect(fallback?.textContent).toBe('Order 12345: 40 EUR')
    const listbox = root.querySelector('[role="listbox"]')
    expect(listbox?.getAttribute('aria-labelledby')).toBe(root.querySelector('[data-chatrail-component="choice-list"] [data-chatrail-component-title]')?.id)
    const reship = [...root.querySelectorAll<HTMLElement>('[role="option"]')].find((option) => option.textContent?.startsWith('Reship'))
    reship?.click()
    reship?.click()
    await expect.poll(() => [...root.querySelectorAll('[data-chatrail-message][data-chatrail-role="assistant"]')].at(-1)?.textContent).toContain('Reshipping your card.')
    const sent = [...root.querySelectorAll('[data-chatrail-message][data-chatrail-role="user"] [data-chatrail-content]')].map((node) => node.textContent)
    expect(sent).toEqual(['/lost', 'Reship'])
    expect(root.querySelector('[role="listbox"]')?.getAttribute('aria-disabled')).toBe('true')
    expect(root.querySelector('[role="option"][aria-selected="true"]')?.textContent).toContain('Reship')
    expect(adapter.calls).toHaveLength(0)
  })
})
