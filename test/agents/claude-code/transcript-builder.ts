import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Builds Claude Code transcript lines in the 2.1.19x shape for rule tests: each line gets a uuid
 * chained to the previous one by `parentUuid`, and a timestamp one second after the previous.
 * Fixtures from the real CLI cover the same shapes end to end (recorded-fixtures.test.ts).
 */

export const SESSION = '11111111-2222-4333-8444-555555555555'
export type Line = Record<string, unknown>

export class TranscriptBuilder {
  readonly lines: Line[] = []
  private n = 0
  private parent: string | null = null
  private clock = Date.parse('2026-07-01T10:00:00.000Z')

  private envelope(extra: Line): Line {
    this.n += 1
    const uuid = `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`
    this.clock += 1000
    const line = { parentUuid: this.parent, isSidechain: false, userType: 'external', cwd: '/w', sessionId: SESSION, version: '2.1.197', uuid, timestamp: new Date(this.clock).toISOString(), ...extra }
    this.parent = uuid
    this.lines.push(line)
    return line
  }

  /** The epoch ms of the last line written. */
  get lastMs(): number {
    return this.clock
  }

  prompt(text: string, extra: Line = {}): this {
    this.envelope({ type: 'user', message: { role: 'user', content: text }, ...extra })
    return this
  }

  userBlocks(content: unknown[], extra: Line = {}): this {
    this.envelope({ type: 'user', message: { role: 'user', content }, ...extra })
    return this
  }

  text(text: string, options: { id?: string; stop?: string | null; extra?: Line } = {}): this {
    this.envelope({ type: 'assistant', message: { id: options.id ?? `msg_${this.n + 1}`, role: 'assistant', model: 'claude', content: [{ type: 'text', text }], stop_reason: options.stop === undefined ? 'end_turn' : options.stop, usage: { input_tokens: 10, output_tokens: 5 } }, ...options.extra })
    return this
  }

  thinking(thinking: string, options: { id?: string; stop?: string | null } = {}): this {
    this.envelope({ type: 'assistant', message: { id: options.id ?? `msg_${this.n + 1}`, role: 'assistant', content: [{ type: 'thinking', thinking, signature: 'x' }], stop_reason: options.stop ?? null } })
    return this
  }

  toolUse(id: string, name: string, input: unknown, options: { msgId?: string } = {}): this {
    this.envelope({ type: 'assistant', message: { id: options.msgId ?? `msg_${this.n + 1}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } } })
    return this
  }

  toolResult(id: string, content: string, options: { isError?: boolean; result?: unknown; denialKind?: string } = {}): this {
    this.envelope({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(options.isError ? { is_error: true } : {}) }] },
      ...(options.result !== undefined ? { toolUseResult: options.result } : {}),
      ...(options.denialKind !== undefined ? { toolDenialKind: options.denialKind } : {}),
    })
    return this
  }

  interrupt(forTool = false): this {
    return this.userBlocks([{ type: 'text', text: forTool ? '[Request interrupted by user for tool use]' : '[Request interrupted by user]' }])
  }

  echo(name: string, args = '', stdout?: string): this {
    this.envelope({ type: 'user', message: { role: 'user', content: `<command-name>${name}</command-name>\n<command-message>${name.slice(1)}</command-message>\n<command-args>${args}</command-args>` } })
    if (stdout !== undefined) this.envelope({ type: 'user', message: { role: 'user', content: `<local-command-stdout>${stdout}</local-command-stdout>` } })
    return this
  }

  apiError(text: string, tag = 'rate_limit'): this {
    this.envelope({ type: 'assistant', isApiErrorMessage: true, error: tag, message: { id: `msg_err_${this.n}`, role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text }], stop_reason: 'stop_sequence' } })
    return this
  }

  system(subtype: string, extra: Line = {}): this {
    this.envelope({ type: 'system', subtype, ...extra })
    return this
  }

  /** A record with no uuid (metadata): never moves state. */
  meta(record: Line): this {
    this.lines.push(record)
    return this
  }

  raw(line: Line): this {
    this.lines.push(line)
    return this
  }

  jsonl(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
  }
}

export function transcript(): TranscriptBuilder {
  return new TranscriptBuilder()
}

export interface TempDir {
  dir: string
  write: (name: string, content: string) => string
  cleanup: () => void
}

export function tempDir(prefix = 'chatrail-cc-test-'): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return {
    dir,
    write: (name, content) => {
      const path = join(dir, name)
      writeFileSync(path, content)
      return path
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export const askInput = {
  questions: [{ question: 'Which color do you prefer?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }],
}
