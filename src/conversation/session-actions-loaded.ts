// What session-actions.ts loads on first use: one module, so a bundler splits one lazy chunk; it
// shares no module with the session's chunk (action-kit.ts).
export { actionConfirmationWith } from './action-confirmation.js'
export { capabilityPolicyWith } from './capability-policy.js'
