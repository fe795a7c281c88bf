/**
 * The agent-dialog UI of `chatrail/react`, loaded on demand (dialog-ui-loader.ts): the dialog cards
 * (question and plan forms, Q→A summaries) (plans render through the entry's `<PlanMarkdown>`, passed in). Only pages that meet an
 * agent dialog (a live coding-agent backend) download it. It imports React and its own files only,
 * so the bundlers' code splitting leaves no chunk shared with the entry.
 */
export { DialogCardContent } from './dialog-card-content.js'
export type { DialogCardContentProps } from './dialog-card-content.js'
