import { describeBindingScenarios } from './binding-scenarios.js'
import { svelteMount } from './mount-svelte.js'

// The shared Chromium scenario suite (binding-scenarios.ts) against chatrail/svelte. One file per
// binding so that the bindings run in parallel workers (issue 27).
describeBindingScenarios(svelteMount)
