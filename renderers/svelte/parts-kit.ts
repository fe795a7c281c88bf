/**
 * What the lazily loaded parts of chatrail/svelte (the dialog card, the component views, the
 * approval card) take from the view model, apart from kit.ts so that the entry does not carry it:
 * each `.svelte` file of those chunks imports this module (dist/svelte/parts-kit.js in the package).
 */
// Not yet in src/view (helper V moves the props check there): the one rule chatrail/react draws by.
export { checkedProps, isStandardKey } from '../../src/view/component-props.js'
export type { StandardKey, StandardViewProps } from '../../src/view/component-props.js'
export { answerOf, answerText, noChoice, questionsOf } from '../../src/view/dialog-answers.js'
export type { DialogChoice } from '../../src/view/dialog-answers.js'
export { cellText, formSummary, formValuesOf, progressOf, sizeText } from '../../src/view/component-text.js'
export { componentKeyOf } from '../../src/view/component-key.js'
export { dialogLabels } from '../../src/view/dialog-labels.js'
export { componentLabels } from '../../src/view/component-labels.js'
export { approvalLabels } from '../../src/view/approval-labels.js'
export { extrasLabels } from '../../src/view/extras-labels.js'
export { finishedReplies } from '../../src/view/reply-announcements.js'
export { approvalOutcomeOf, approvalStateOf } from '../../src/view/approval-card.js'
export { isSafeUrl } from '../../src/components/safe-url.js'
export { isFollowing } from '../../src/view/follow-scroll.js'
export { reasoningOf } from '../../src/view/reasoning.js'
export { sourceLabel } from '../../src/view/source-label.js'
export { formatToolArgs, truncatedHead } from '../../src/view/tool-output.js'
export { messageLabels } from '../../src/view/message-labels.js'
export { sourcesOf } from '../../src/contract/message-source.js'
