import { readChat } from '../../../../src/agents/codex/read-chat.js'
import { streamFile } from '../../../../src/agents/runstate/file-stream.js'

/**
 * Run by zst-window.test.ts in its own process (a heap cap on the command line, its own peak RSS):
 * reads the `.zst` rollout given as the first argument through `readChat`, then times decoding it
 * alone, and prints what it saw as one JSON line.
 */
const path = process.argv[2] ?? ''
const readStarted = performance.now()
const chat = await readChat({ runId: 'bomb', runtimeDir: '', transcriptPath: path })
const readMs = performance.now() - readStarted
const maxRssKb = process.resourceUsage().maxRSS
const decodeStarted = performance.now()
const decoded = await streamFile(path, { compressed: true }, () => undefined)
const decodeMs = performance.now() - decodeStarted
process.stdout.write(`${JSON.stringify({ readMs, decodeMs, decodedBytes: decoded.bytes, maxRssKb, messages: chat.messages.length, firstWarning: chat.warnings[0], state: chat.state, status: chat.status, sessionId: chat.sessionId, cursor: chat.cursor })}\n`)
