/**
 * Codex sends the model user-role messages it wrote itself: `<environment_context>`,
 * `<user_instructions>`, `# AGENTS.md instructions for …`, the `<turn_aborted>` marker,
 * `<skills_instructions>` and whatever tag the next release adds. They are context, never what the
 * user typed. Only response items need this check: prompts recorded as events (`user_message`,
 * `item_completed` UserMessage) are verbatim user input and are never filtered.
 */

const WRAPPED_IN_ONE_TAG = /^<([A-Za-z_][\w -]*)>[\s\S]*<\/\1>$/
const INJECTED_HEADINGS = ['# AGENTS.md instructions', '# Instructions from AGENTS.md']

/** True for a harness-injected user-role text (pure). */
export function isInjectedContext(text: string): boolean {
  const trimmed = text.trim()
  if (WRAPPED_IN_ONE_TAG.test(trimmed)) return true
  return INJECTED_HEADINGS.some((heading) => trimmed.startsWith(heading))
}
