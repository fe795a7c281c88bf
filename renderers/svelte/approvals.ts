// What chatrail/svelte/actions is in plain Node (its `import` and `require` conditions): the
// approval sources, without the card (a `.svelte` file, for the app's Svelte plugin to compile).
export { coordinatorApprovals, serverApprovals } from '../../src/view/approval-source.js'
export type { ApprovalRecord, ApprovalSource, ServerApprovalsOptions } from '../../src/view/approval-source.js'
