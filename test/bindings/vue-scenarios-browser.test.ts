import { describeBindingScenarios } from './binding-scenarios.js'
import { vueMount } from './mount-vue.js'

// The shared Chromium scenario suite (binding-scenarios.ts) against chatrail/vue. One file per
// binding so that the bindings run in parallel workers (issue 27).
describeBindingScenarios(vueMount)
