import { describe, expect, it } from 'vitest'
import {
  agentItem,
  agentMessage,
  agentReasoning,
  commandItem,
  envelope,
  event,
  foldLines,
  functionCall,
  functionOutput,
  message,
  outline,
  reasoning,
  reasoningItem,
  responseItem,
  sessionMeta,
  taskComplete,
  taskStarted,
  tokenCount,
  turnAborted,
  userItem,
  userMessage,
} from './rollout-builders.js'

describe('codex fold: prose sources', () => {
  it('takes prompts and answers from events; envelope message items (and injected context) never become text', () => {
    const chat = foldLines([
      sessionMeta(),
      message('developer', '<permissions instructions>sandboxed</permissions instructions>'),
      message('user', '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>'),
      message('user', 'fix the bug'),
      userMessage('fix the bug'),
      agentMessage('Done.'),
      message('assistant', 'Done.'),
    ])
    expect(outline(chat)).toEqual(['1 text:user:fix the bug', '2 text:assistant:Done.'])
  })

  it('reads current files: item_completed UserMessage / AgentMessage, with their response_item twins skipped', () => {
    const chat = foldLines([
      taskStarted('t1'),
      message('user', 'hi'),
      userItem('t1', 'hi'),
      agentItem('t1', 'msg_1', 'Hello there.'),
      message('assistant', 'Hello there.', { id: 'msg_1' }),
      taskComplete('t1'),
    ])
    expect(outline(chat)).toEqual(['1 text:user:hi', '2 text:assistant:Hello there.'])
  })

  it('keeps one copy when a release writes a prompt both as an event and as a TurnItem, but keeps a prompt typed twice', () => {
    const twice = foldLines([taskStarted('t1'), userMessage('again'), userItem('t1', 'again'), taskComplete('t1')])
    expect(outline(twice)).toEqual(['1 text:user:again'])
    const repeated = foldLines([taskStarted('t1'), userItem('t1', 'again'), taskComplete('t1'), taskStarted('t2'), userItem('t2', 'again')])
    expect(outline(repeated)).toEqual(['1 text:user:again', '2 text:user:again'])
  })

  it('legacy bare files take prose from message items, minus developer messages and injected user context', () => {
    const chat = foldLines([
      { id: '4d26a132-34a6-4eb8-a1f4-6ef44c0b4a4c', timestamp: '2025-08-11T18:18:33.034Z', instructions: null },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_instructions>\nbe brief\n</user_instructions>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '# AGENTS.md instructions for /repo\n\nuse pnpm' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<turn_aborted>\nThe user interrupted.\n</turn_aborted>' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'you are codex' }] },
      { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'grok the <b>codebase</b>' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Mapping it now.' }] },
    ])
    expect(chat.sessionId).toBe('4d26a132-34a6-4eb8-a1f4-6ef44c0b4a4c')
    expect(outline(chat)).toEqual(['1 text:user:grok the <b>codebase</b>', '2 text:assistant:Mapping it now.'])
  })

  it('keeps raw timestamps on messages', () => {
    const line = envelope('event_msg', { type: 'user_message', message: 'x' })
    const chat = foldLines([line])
    expect(chat.messages[0]?.at).toBe((JSON.parse(line) as { timestamp: string }).timestamp)
  })
})

describe('codex fold: thinking', () => {
  it('yields thinking only from non-empty summaries, joined by newlines; never from encrypted or raw content', () => {
    const chat = foldLines([
      reasoning([]),
      reasoning(['', '  ']),
      responseItem({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw chain of thought' }], encrypted_content: 'x' }),
      reasoning(['first', 'second']),
    ])
    expect(outline(chat)).toEqual(['1 thinking:assistant:first\nsecond'])
  })

  it('ignores agent_reasoning events (they repeat the reasoning item) and deduplicates TurnItem + item by id', () => {
    const chat = foldLines([
      taskStarted('t1'),
      reasoningItem('t1', 'rs_1', ['Looking at files']),
      reasoning(['Looking at files'], 'rs_1'),
      agentReasoning('Looking at files'),
      reasoningItem('t1', 'rs_2', []),
    ])
    expect(outline(chat)).toEqual(['1 thinking:assistant:Looking at files'])
  })
})

describe('codex fold: tool chips', () => {
  it('back-patches chips by call_id, parses JSON arguments and keeps non-JSON arguments as text', () => {
    const chat = foldLines([
      functionCall('c1', 'exec_command', { cmd: 'ls' }),
      functionCall('c2', 'shell', 'not json'),
      functionOutput('c1', 'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\na.txt\n'),
    ])
    expect(chat.messages[0]?.tool).toEqual({ id: 'c1', name: 'exec_command', input: { cmd: 'ls' }, status: 'ok', output: 'a.txt\n' })
    expect(chat.messages[1]?.tool).toMatchObject({ id: 'c2', input: 'not json', status: 'running' })
  })

  it('marks a command that exited non-zero as error, in every output format Codex has written', () => {
    const chat = foldLines([
      functionCall('a', 'exec_command', { cmd: 'false' }),
      functionOutput('a', 'Chunk ID: 1\nWall time: 0.2 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nls: cannot access\n'),
      functionCall('b', 'shell_command', { command: 'python x.py' }),
      functionOutput('b', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\nerror: not found\n'),
      functionCall('c', 'shell', { command: ['bash', '-lc', 'rg x'] }),
      functionOutput('c', JSON.stringify({ output: '', metadata: { exit_code: 1, duration_seconds: 0.1 } })),
      functionCall('d', 'shell', { command: ['bash', '-lc', 'echo ok'] }),
      functionOutput('d', JSON.stringify({ output: 'ok\n', metadata: { exit_code: 0, duration_seconds: 0.1 } })),
    ])
    expect(chat.messages.map((m) => m.tool?.status)).toEqual(['error', 'error', 'error', 'ok'])
    expect(chat.messages[0]?.tool?.output).toBe('ls: cannot access\n')
  })

  it('reads the exit code from the header only: a command printing "Exit code: 1" is still ok', () => {
    const chat = foldLines([functionCall('a', 'exec_command', { cmd: 'cat log' }), functionOutput('a', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nExit code: 1\n')])
    expect(chat.messages[0]?.tool?.status).toBe('ok')
  })

  it('marks failed or declined statuses as error and keeps error sticky against a later plain output', () => {
    const chat = foldLines([
      taskStarted('t1'),
      functionCall('c1', 'exec_command', { cmd: 'make' }),
      commandItem('t1', 'c1', 'failed', 2, 'make: *** [all] Error 2\n'),
      functionOutput('c1', 'Wall time: 1 seconds\nsome text without an exit code'),
      functionCall('c2', 'exec_command', { cmd: 'rm -rf /' }),
      commandItem('t1', 'c2', 'declined', -1, ''),
      functionCall('c3', 'exec_command', { cmd: 'ls' }),
      commandItem('t1', 'c3', 'completed', 0, 'a\n'),
    ])
    expect(chat.messages.map((m) => [m.tool?.status, m.tool?.output])).toEqual([
      ['error', 'make: *** [all] Error 2\n'],
      ['error', ''],
      ['ok', 'a\n'],
    ])
  })

  it('applies a result written before its call, and leaves an unanswered call running', () => {
    const chat = foldLines([
      event({ type: 'exec_command_end', call_id: 'early', exit_code: 1, aggregated_output: 'boom', status: 'failed' }),
      functionCall('early', 'exec_command', { cmd: 'boom' }),
      functionCall('late', 'exec_command', { cmd: 'sleep 9' }),
    ])
    expect(chat.messages.map((m) => m.tool?.status)).toEqual(['error', 'running'])
  })

  it('reads patch, MCP, custom tool, local shell and web search shapes', () => {
    const chat = foldLines([
      responseItem({ type: 'custom_tool_call', status: 'completed', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' }),
      responseItem({ type: 'custom_tool_call_output', call_id: 'p1', output: JSON.stringify({ output: 'Success.', metadata: { exit_code: 0 } }) }),
      responseItem({ type: 'custom_tool_call', status: 'completed', call_id: 'p2', name: 'apply_patch', input: 'bad' }),
      event({ type: 'patch_apply_end', call_id: 'p2', success: false, stdout: '', stderr: 'hunk failed' }),
      functionCall('m1', 'mcp__docs__search', { q: 'x' }),
      event({ type: 'mcp_tool_call_end', call_id: 'm1', result: { Err: 'server offline' } }),
      functionCall('m2', 'mcp__docs__search', { q: 'y' }),
      event({ type: 'mcp_tool_call_end', call_id: 'm2', result: { Ok: { content: [{ type: 'text', text: 'found' }], isError: false } } }),
      responseItem({ type: 'local_shell_call', call_id: 'l1', status: 'completed', action: { type: 'exec', command: ['ls'] } }),
      functionOutput('l1', JSON.stringify({ output: 'a\n', metadata: { exit_code: 0 } })),
      responseItem({ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'codex' } }),
    ])
    expect(chat.messages.map((m) => `${m.tool?.name}:${m.tool?.status}:${m.tool?.output ?? ''}`)).toEqual([
      'apply_patch:ok:Success.',
      'apply_patch:error:hunk failed',
      'mcp__docs__search:error:server offline',
      'mcp__docs__search:ok:found',
      'local_shell:ok:a\n',
      'web_search:ok:',
    ])
  })

  it('marks chips still running when the turn is aborted as error, and writes the reason as a lifecycle line', () => {
    const chat = foldLines([taskStarted('t1'), userMessage('slow'), functionCall('c1', 'exec_command', { cmd: 'sleep 30' }), turnAborted('t1', 'interrupted')])
    expect(outline(chat)).toEqual(['1 text:user:slow', '2 tool:exec_command:error', '3 lifecycle:system:interrupted'])
  })

  it('cuts long tool outputs and says by how much', () => {
    const chat = foldLines([functionCall('c', 'exec_command', { cmd: 'yes' }), functionOutput('c', `Exit code: 0\nOutput:\n${'y\n'.repeat(100)}`)], { maxToolOutputChars: 10 })
    expect(chat.messages[0]?.tool?.output).toBe('y\ny\ny\ny\ny\n… (190 more chars)')
  })
})

describe('codex fold: bookkeeping lines', () => {
  it('takes the session id from session_meta, else from the file name', () => {
    expect(foldLines([sessionMeta('01a22000-0000-7000-8000-000000000001')], { fileSessionId: 'other' }).sessionId).toBe('01a22000-0000-7000-8000-000000000001')
    expect(foldLines([userMessage('x')], { fileSessionId: '01a22000-0000-7000-8000-00000000000f' }).sessionId).toBe('01a22000-0000-7000-8000-00000000000f')
  })

  it('reads usage from token_count totals (input without cache reads), ignoring info:null heartbeats', () => {
    const chat = foldLines([
      tokenCount({ total_token_usage: { input_tokens: 1000, cached_input_tokens: 600, output_tokens: 50, reasoning_output_tokens: 10, total_tokens: 1050 } }),
      tokenCount(null),
    ])
    expect(chat.usage).toEqual({ inputTokens: 400, outputTokens: 50, cacheReadTokens: 600 })
    expect(foldLines([tokenCount(null)]).usage).toBeUndefined()
  })

  it('skips non-record JSON lines with a warning, and unknown types silently', () => {
    const chat = foldLines([
      42,
      ['array'],
      envelope('world_state', { full: true }),
      envelope('some_future_record', { x: 1 }),
      event({ type: 'some_future_event' }),
      responseItem({ type: 'ghost_snapshot', ghost_commit: {} }),
      userMessage('still here'),
    ])
    expect(outline(chat)).toEqual(['1 text:user:still here'])
    expect(chat.warnings).toEqual(['line 1: a JSON number, not a record; skipped.', 'line 2: a JSON array, not a record; skipped.'])
    const noise = foldLines([42, envelope('some_future_record', {}), event({ type: 'some_future_event' }), tokenCount(null)])
    expect([noise.state, noise.status, noise.messages.length]).toEqual(['idle', 'idle', 0])
  })

  it('writes a compaction as a state-neutral lifecycle line', () => {
    const chat = foldLines([taskStarted('t1'), userMessage('x'), envelope('compacted', { message: '', replacement_history: [] }), event({ type: 'context_compacted' })])
    expect(outline(chat)).toEqual(['1 text:user:x', '2 lifecycle:system:Context compacted'])
    expect(chat.state).toBe('working')
  })

  it('never emits a dialog and never reports question', () => {
    const chat = foldLines([taskStarted('t1'), functionCall('q', 'request_user_input', { questions: [{ question: 'Which?' }] })])
    expect(chat.messages.some((m) => m.kind === 'dialog')).toBe(false)
    expect(chat.pendingDialog).toBeUndefined()
    expect(chat.state).toBe('working')
  })
})
