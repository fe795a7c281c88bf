import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

/**
 * Writes a large, realistic Claude Code transcript: repeated turns of a prompt, a text + Read
 * tool_use API message (two lines), a tool_result with a big file body, and a final text, every
 * line chained by `parentUuid`. Most bytes are tool output, as in real long sessions. Streams to
 * disk, so generating a file bigger than memory is fine.
 */

export interface GeneratedTranscript {
  bytes: number
  lines: number
  turns: number
}

export async function generateTranscript(path: string, targetBytes: number, options: { toolOutputBytes?: number } = {}): Promise<GeneratedTranscript> {
  const out = createWriteStream(path)
  const body = 'x'.repeat(options.toolOutputBytes ?? 32 * 1024)
  let bytes = 0
  let lines = 0
  let turns = 0
  let n = 0
  let parent: string | null = null
  const base = Date.parse('2026-07-01T00:00:00.000Z')
  const uuid = (): string => `${(0x10000000 + (n >>> 0)).toString(16).slice(-8)}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
  const write = async (record: Record<string, unknown>): Promise<void> => {
    n += 1
    const id = uuid()
    const line = `${JSON.stringify({ parentUuid: parent, isSidechain: false, sessionId: 'generated', uuid: id, timestamp: new Date(base + n * 1000).toISOString(), ...record })}\n`
    parent = id
    bytes += Buffer.byteLength(line)
    lines += 1
    if (!out.write(line)) await once(out, 'drain')
  }
  while (bytes < targetBytes) {
    turns += 1
    const tool = `toolu_${turns}`
    const msg = `msg_${turns}`
    await write({ type: 'user', message: { role: 'user', content: `Please read file number ${turns} and summarise it.` } })
    await write({ type: 'assistant', message: { id: msg, role: 'assistant', content: [{ type: 'text', text: `Reading file ${turns}.` }], stop_reason: 'tool_use', usage: { input_tokens: 100, output_tokens: 20 } } })
    await write({ type: 'assistant', message: { id: msg, role: 'assistant', content: [{ type: 'tool_use', id: tool, name: 'Read', input: { file_path: `/src/file${turns}.ts` } }], stop_reason: 'tool_use', usage: { input_tokens: 100, output_tokens: 20 } } })
    await write({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool, content: body }] }, toolUseResult: { type: 'text', file: { filePath: `/src/file${turns}.ts`, content: body } } })
    await write({ type: 'assistant', message: { id: `${msg}_b`, role: 'assistant', content: [{ type: 'text', text: `File ${turns} defines a few helpers.` }], stop_reason: 'end_turn', usage: { input_tokens: 100, output_tokens: 30 } } })
  }
  out.end()
  await once(out, 'close')
  return { bytes, lines, turns }
}
