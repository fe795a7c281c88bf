import type { AudioPart, ContentPart, FilePart, ImagePart, PartKind, TextPart, VideoPart } from './message.js'

/** Pure constructors and projections for content parts, as upstream exports them. */

export const textPart = (text: string): TextPart => ({ type: 'text', text })

export const imagePart = (source: string, opts: Omit<ImagePart, 'type' | 'source'> = {}): ImagePart => ({
  type: 'image',
  source,
  ...opts,
})

export const audioPart = (source: string, opts: Omit<AudioPart, 'type' | 'source'> = {}): AudioPart => ({
  type: 'audio',
  source,
  ...opts,
})

export const videoPart = (source: string, opts: Omit<VideoPart, 'type' | 'source'> = {}): VideoPart => ({
  type: 'video',
  source,
  ...opts,
})

export const filePart = (source: string, opts: Omit<FilePart, 'type' | 'source'> = {}): FilePart => ({
  type: 'file',
  source,
  ...opts,
})

/**
 * Text projection of parts: text parts as-is, a component as its fallback summary (what a model
 * reads in its place), others as `[kind: source]` (files by name), joined by newlines.
 */
export function partsToText(parts: readonly ContentPart[]): string {
  return parts
    .map((part) => {
      if (part.type === 'text') return part.text
      if (part.type === 'file') return `[file: ${part.filename ?? part.source}]`
      if (part.type === 'component') return part.fallback.summary
      return `[${part.type}: ${part.source}]`
    })
    .join('\n')
}

/** Normalizes a content string and/or parts into both projections. */
export function normalizeContent(content?: string, parts?: ContentPart[]): { text: string; parts: ContentPart[] } {
  if (parts && parts.length > 0) return { text: partsToText(parts), parts }
  const text = content ?? ''
  return { text, parts: text ? [textPart(text)] : [] }
}

export function filterParts<K extends PartKind>(
  parts: readonly ContentPart[],
  kind: K,
): Array<Extract<ContentPart, { type: K }>> {
  return parts.filter((part): part is Extract<ContentPart, { type: K }> => part.type === kind)
}
