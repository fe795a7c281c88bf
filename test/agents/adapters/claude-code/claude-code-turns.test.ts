import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { lastUserText, startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { collect, textOf, typesOf, userMessage } from '../support/harness.js'

/** Turns of the real Claude Code CLI (node_modules/.bin/claude) against the scripted Anthropic server. */

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('claudeCodeAdapter turns (real CLI)', () => {
  it('a text turn: thinking and text stream in, then usage and done; the final frame is not counted twice', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'thinking', thinking: 'A greeting is due.' }, { type: 'text', text: 'Hello from Claude.' }] }])
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Say hello')] }))
    expect(textOf(chunks)).toBe('Hello from Claude.')
    expect(textOf(chunks, 'reasoning')).toBe('A greeting is due.')
    expect(typesOf(chunks).slice(-2)).toEqual(['usage', 'done'])
    expect(chunks.at(-1)?.metadata?.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(lastUserText(rig.server.requests.filter((request) => !request.side)[0]?.body ?? {})).toBe('Say hello')
  }, 60_000)

  it('a tool turn: Claude Code runs Bash itself; the call shows at its start, its result follows, then the closing text', async () => {
    rig = await startClaudeRig(
      [
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'printf chatrail > made-by-agent.txt && cat made-by-agent.txt', description: 'Write a file' } }] },
        { content: [{ type: 'text', text: 'Wrote the file.' }] },
      ],
      { allowedTools: ['Bash'] },
    )
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Write a file')] }))
    expect(typesOf(chunks)).toEqual(['tool_call', 'tool_result', 'text', 'text', 'usage', 'done'])
    expect(chunks[0]?.toolCall).toMatchObject({ name: 'Bash' })
    expect(chunks[0]?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running' })
    expect(chunks[1]?.toolCall).toMatchObject({ id: chunks[0]?.toolCall?.id, result: 'chatrail' })
    expect(JSON.parse(chunks[0]?.toolCall?.args ?? '{}')).toMatchObject({ command: expect.stringContaining('made-by-agent.txt') })
    expect(chunks[1]).toMatchObject({ content: 'chatrail', metadata: { isError: false } })
    expect(readFileSync(join(rig.home.cwd, 'made-by-agent.txt'), 'utf8')).toBe('chatrail')
    expect(textOf(chunks)).toBe('Wrote the file.')
  }, 60_000)

  it('a second turn resumes the same Claude session, so the model sees the first exchange', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'text', text: 'Remembered: apple.' }] }, { content: [{ type: 'text', text: 'It was apple.' }] }])
    const first = await collect(rig.adapter.createSource({ messages: [userMessage('Remember apple')] }))
    const second = await collect(rig.adapter.createSource({ messages: [userMessage('Remember apple'), userMessage('Which word?')] }))
    expect(textOf(second)).toBe('It was apple.')
    expect(second.at(-1)?.metadata?.sessionId).toBe(first.at(-1)?.metadata?.sessionId)
    const [, resumed] = rig.server.requests.filter((request) => !request.side)
    const history = JSON.stringify(resumed?.body.messages)
    expect(history).toContain('Remembered: apple.')
    expect(lastUserText(resumed?.body ?? {})).toBe('Which word?')
  }, 90_000)

  it('a prompt starting with -- reaches the model as text and is never read as a flag', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'text', text: 'That was not a flag.' }] }])
    const prompt = '--version --help -p --dangerously-skip-permissions'
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage(prompt)] }))
    expect(chunks.at(-1)?.type).toBe('done')
    expect(textOf(chunks)).toBe('That was not a flag.')
    expect(lastUserText(rig.server.requests.filter((request) => !request.side)[0]?.body ?? {})).toBe(prompt)
  }, 60_000)
})
