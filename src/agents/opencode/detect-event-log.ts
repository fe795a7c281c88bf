import { isRecord } from '../process/json-value.js'

const OPENCODE_EVENT = /^(server\.connected|server\.heartbeat|session\.(status|idle|error|created|updated|deleted|diff)|message\.(updated|removed|part\.(updated|delta|removed))|permission\.(asked|replied)|question\.(asked|replied|rejected))$/

/**
 * True for one line of a recorded OpenCode event stream: an object with an OpenCode event `type`
 * (`session.status`, `message.part.updated`, …) and an object `properties`. Claude Code lines
 * (`type: "user"`) and Codex lines (`type: "session_meta"`) never match.
 */
export function isOpencodeEventContent(line: unknown): boolean {
  return isRecord(line) && typeof line.type === 'string' && OPENCODE_EVENT.test(line.type) && isRecord(line.properties)
}
