import { isComponentPart } from '../contract/component-chunk.js'
import type { ComponentPart, ComponentProvenance } from '../contract/component-part.js'
import type { ContentPart } from '../contract/message.js'
import { checkBoundedJson } from './bounded-json.js'

/**
 * AgentsKit Chat's wire formats, for compatibility only (chatrail's own form is the typed
 * component part): the `agentskit.chat.component` v1 render frame, and the ordered assistant
 * content an AgentsKit adapter streams as text — a record separator (U+001E), the protocol and its
 * version, a newline, then one JSON record per line, `{ kind: 'text', text }` or
 * `{ kind: 'component', frame }`. The bounds are AgentsKit's: a text record up to 16,384
 * characters, at most 512 records and 262,144 UTF-8 bytes in all, props bounded as chatrail's.
 */

export const AGENTSKIT_COMPONENT_PROTOCOL = 'agentskit.chat.component'
export const AGENTSKIT_CONTENT_PREFIX = '\u001eagentskit.chat.content/1\n'
const CONTENT_ROOT = '\u001eagentskit.chat.content/'
export const AGENTSKIT_CONTENT_LIMITS = Object.freeze({ bytes: 262_144, records: 512, textLength: 16_384 })

export interface AgentskitComponentFrame {
  readonly protocol: typeof AGENTSKIT_COMPONENT_PROTOCOL
  readonly version: 1
  readonly type: 'render'
  readonly componentKey: string
  readonly instanceId: string
  readonly props: unknown
  readonly fallback: { readonly kind: string; readonly summary: string }
}

export type AgentskitDecodeCode =
  | 'COMPONENT_UNSUPPORTED_VERSION'
  | 'COMPONENT_UNKNOWN_TYPE'
  | 'COMPONENT_INVALID_FRAME'
  | 'ASSISTANT_CONTENT_UNSUPPORTED_VERSION'
  | 'ASSISTANT_CONTENT_INVALID_RECORD'
  | 'ASSISTANT_CONTENT_LIMIT_EXCEEDED'

export interface AgentskitDiagnostic {
  readonly code: AgentskitDecodeCode
  readonly message: string
}

type Failure = { readonly ok: false; readonly diagnostic: AgentskitDiagnostic }
const failure = (code: AgentskitDecodeCode, message: string): Failure => ({ ok: false, diagnostic: { code, message } })

/** A component part as an AgentsKit render frame. */
export function toAgentskitFrame(part: ComponentPart): AgentskitComponentFrame {
  return { protocol: AGENTSKIT_COMPONENT_PROTOCOL, version: 1, type: 'render', componentKey: part.componentKey, instanceId: part.instanceId, props: part.props, fallback: { kind: part.fallback.kind, summary: part.fallback.summary } }
}

/**
 * An AgentsKit render frame (an object or its JSON) as a component part. A frame says nothing of
 * who made it, so the caller names the provenance (`agent` for what an adapter streamed). Its
 * props are checked for bounds here and against the registry by whoever draws it.
 */
export function fromAgentskitFrame(input: unknown, provenance: ComponentProvenance): { readonly ok: true; readonly part: ComponentPart } | Failure {
  let frame = input
  if (typeof input === 'string') {
    try {
      frame = JSON.parse(input) as unknown
    } catch {
      return failure('COMPONENT_INVALID_FRAME', 'The component frame is not JSON.')
    }
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return failure('COMPONENT_INVALID_FRAME', 'A component frame is an object.')
  const fields = frame as Record<string, unknown>
  if (fields.protocol !== AGENTSKIT_COMPONENT_PROTOCOL) return failure('COMPONENT_INVALID_FRAME', `A component frame's protocol is "${AGENTSKIT_COMPONENT_PROTOCOL}".`)
  if (fields.version !== 1) return failure('COMPONENT_UNSUPPORTED_VERSION', `Component frame version ${JSON.stringify(fields.version)} is not supported (only 1).`)
  if (fields.type !== 'render') return failure('COMPONENT_UNKNOWN_TYPE', `Component frame type ${JSON.stringify(fields.type)} is not a render frame.`)
  const extra = Object.keys(fields).filter((key) => !['protocol', 'version', 'type', 'componentKey', 'instanceId', 'props', 'fallback'].includes(key))
  if (extra.length > 0) return failure('COMPONENT_INVALID_FRAME', `The component frame has unknown fields: ${extra.join(', ')}.`)
  const part = { type: 'component', componentKey: fields.componentKey, instanceId: fields.instanceId, props: fields.props, fallback: fields.fallback, provenance }
  if (!isComponentPart(part)) return failure('COMPONENT_INVALID_FRAME', 'The component frame has an invalid key, instance id or fallback.')
  if (checkBoundedJson(fields.props)) return failure('COMPONENT_INVALID_FRAME', 'The component frame\'s props are not bounded plain JSON.')
  const fallback = fields.fallback as { kind: string; summary: string }
  return { ok: true, part: { ...part, fallback: { kind: fallback.kind, summary: fallback.summary } } }
}

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).byteLength

/**
 * Parts as AgentsKit's ordered content: text parts as text records (a long one split into records
 * of 16,384 characters, never inside a surrogate pair), components as frames. Other part kinds have
 * no record and are left out. Undefined when the result passes AgentsKit's limits.
 */
export function encodeAgentskitContent(parts: readonly ContentPart[]): string | undefined {
  const records: string[] = []
  for (const part of parts) {
    if (part.type === 'component') records.push(JSON.stringify({ kind: 'component', frame: toAgentskitFrame(part) }))
    else if (part.type === 'text') for (const piece of splitText(part.text)) records.push(JSON.stringify({ kind: 'text', text: piece }))
  }
  const content = `${AGENTSKIT_CONTENT_PREFIX}${records.map((record) => `${record}\n`).join('')}`
  return records.length > AGENTSKIT_CONTENT_LIMITS.records || utf8Bytes(content) > AGENTSKIT_CONTENT_LIMITS.bytes ? undefined : content
}

function splitText(text: string): string[] {
  const pieces: string[] = []
  let from = 0
  while (from < text.length) {
    let to = Math.min(from + AGENTSKIT_CONTENT_LIMITS.textLength, text.length)
    const last = text.charCodeAt(to - 1)
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to -= 1
    pieces.push(text.slice(from, to))
    from = to
  }
  return pieces
}

/** True when `text` is (or starts to be) AgentsKit ordered content rather than plain text. */
export function isAgentskitContent(text: string): boolean {
  return text.startsWith('\u001e')
}

/**
 * AgentsKit ordered content (whole, or as much as has streamed) as parts, in order. While it is
 * still streaming, a partial prefix gives no parts and an unfinished last record is left out
 * (`complete: false`); text inside a text record stays text, whatever it looks like.
 */
export function decodeAgentskitContent(input: string, provenance: ComponentProvenance): { readonly ok: true; readonly parts: ContentPart[]; readonly complete: boolean } | Failure {
  if (!input.startsWith('\u001e')) return failure('ASSISTANT_CONTENT_INVALID_RECORD', 'Ordered content starts with U+001E.')
  if (AGENTSKIT_CONTENT_PREFIX.startsWith(input) || (!input.startsWith(CONTENT_ROOT) && CONTENT_ROOT.startsWith(input))) return { ok: true, parts: [], complete: false }
  if (!input.startsWith(CONTENT_ROOT)) return failure('ASSISTANT_CONTENT_INVALID_RECORD', 'This is not AgentsKit ordered content.')
  if (!input.startsWith(AGENTSKIT_CONTENT_PREFIX)) return failure('ASSISTANT_CONTENT_UNSUPPORTED_VERSION', 'Ordered content of a version other than 1 is not supported.')
  if (utf8Bytes(input) > AGENTSKIT_CONTENT_LIMITS.bytes) return failure('ASSISTANT_CONTENT_LIMIT_EXCEEDED', `Ordered content is over ${AGENTSKIT_CONTENT_LIMITS.bytes} UTF-8 bytes.`)
  const lines = input.slice(AGENTSKIT_CONTENT_PREFIX.length).split('\n')
  // the last line is '' when the content ends with a newline (complete), else a record still streaming
  const complete = lines.at(-1) === ''
  lines.pop()
  if (lines.length > AGENTSKIT_CONTENT_LIMITS.records) return failure('ASSISTANT_CONTENT_LIMIT_EXCEEDED', `Ordered content has more than ${AGENTSKIT_CONTENT_LIMITS.records} records.`)
  const parts: ContentPart[] = []
  for (const [index, line] of lines.entries()) {
    let record: unknown
    try {
      record = JSON.parse(line) as unknown
    } catch {
      return failure('ASSISTANT_CONTENT_INVALID_RECORD', `Record ${index + 1} is not JSON.`)
    }
    const { kind, text, frame } = (typeof record === 'object' && record !== null ? record : {}) as Record<string, unknown>
    if (kind === 'text' && typeof text === 'string' && text.length >= 1 && text.length <= AGENTSKIT_CONTENT_LIMITS.textLength && Object.keys(record as object).length === 2) {
      const previous = parts.at(-1)
      if (previous?.type === 'text') parts[parts.length - 1] = { type: 'text', text: previous.text + text }
      else parts.push({ type: 'text', text })
      continue
    }
    if (kind === 'component' && Object.keys(record as object).length === 2) {
      const decoded = fromAgentskitFrame(frame, provenance)
      if (!decoded.ok) return failure('ASSISTANT_CONTENT_INVALID_RECORD', `Record ${index + 1}: ${decoded.diagnostic.message}`)
      parts.push(decoded.part)
      continue
    }
    return failure('ASSISTANT_CONTENT_INVALID_RECORD', `Record ${index + 1} is neither { kind: 'text', text } nor { kind: 'component', frame }.`)
  }
  return { ok: true, parts, complete }
}
