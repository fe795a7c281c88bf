import { sveltePlugin } from '../svelte/svelte-plugin.js'
import type { BindingMount } from './binding-mount.js'
import { buildScenarioPage } from './scenario-page.js'

/**
 * chatrail/svelte: `<ChatSession>` (svelte-page/main.ts), its `.svelte` files compiled by
 * esbuild-svelte as an app's bundler compiles the package's (the `svelte` condition first, then
 * Svelte's browser build); the components carry no styles of their own (renderers/react/styles.css).
 */
export const svelteMount: BindingMount = {
  name: 'svelte',
  build: (outdir) => buildScenarioPage(new URL('./svelte-page/main.ts', import.meta.url), outdir, {
    plugins: [sveltePlugin()],
    conditions: ['svelte', 'browser'],
  }),
}
