import { describeBindingScenarios } from './binding-scenarios.js'
import { reactMount } from './mount-react.js'

// The shared Chromium scenario suite (binding-scenarios.ts) against chatrail/react. One file per
// binding so that the bindings run in parallel workers (issue 27).
describeBindingScenarios(reactMount)
