import type { MessageSource } from '../contract/message-source.js'

/** Pure: how a source is named on screen: its title, else its host (or the url as written). */
export function sourceLabel(source: MessageSource): string {
  if (source.title !== undefined && source.title.trim() !== '') return source.title
  try {
    return new URL(source.url).host || source.url
  } catch {
    return source.url
  }
}
