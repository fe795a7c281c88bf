import type { BindingMount } from './binding-mount.js'
import { reactMount } from './mount-react.js'
import { svelteMount } from './mount-svelte.js'
import { vueMount } from './mount-vue.js'

/** Every web binding the scenario suite runs (bindings-browser.test.ts), one describe block each. */
export const mounts: readonly BindingMount[] = [reactMount, vueMount, svelteMount]
