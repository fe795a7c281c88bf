/**
 * The view's component rules, loaded the first time a chat shows a component part (component-rules.ts):
 * which components history answers (the session's own judge), which one a terminal offers now, and
 * how an interaction is sent (once: component-send.ts). A chat that never shows a component never downloads them.
 */
export { componentAnswersOf } from './component-answers.js'
export { pendingComponentOf } from './pending-component.js'
export { sendInteraction } from '../conversation/interactions.js'
export { sendComponentClick } from './component-send.js'
