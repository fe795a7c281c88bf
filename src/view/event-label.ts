type Labels = Readonly<Record<string, string | undefined>> | undefined

/**
 * Pure: what an event button or chip says: the renderer's `eventLabels` (by UI event, then by
 * machine event), else the definition's `conversation.eventLabels` (the same order), else
 * `fallback` (the UI event humanized, `humanizeEvent`: `talk_to_human` → "Talk to human", or a word of its own).
 */
export function eventLabelOf(uiEvent: string, event: string | undefined, own: Labels, definition: Labels, fallback: string): string {
  for (const labels of [own, definition]) {
    const label = labels?.[uiEvent] ?? (event === undefined ? undefined : labels?.[event])
    if (label !== undefined) return label
  }
  return fallback
}
