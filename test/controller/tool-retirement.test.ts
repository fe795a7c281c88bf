import { describe, expect, it } from 'vitest'
import type { StreamChunk, ToolDefinition } from '../../src/contract/index.js'
import { settle, setup } from './harness.js'

// A tool that `updateConfig` replaces is disposed once its running executions settle, and only
// once (issue 14 §2 item 5). Before, only `clear()` disposed tools.

const call = (id: string, name: string): StreamChunk => ({ type: 'tool_call', toolCall: { id, name, args: '{}' } })

/** A tool that logs its lifecycle; `execute` waits for `release()` when `blocking` is set. */
function loggedTool(label: string, log: string[], blocking = false): ToolDefinition & { release: () => void } {
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (release = resolve))
  return {
    name: 'fetch',
    init: () => void log.push(`init ${label}`),
    dispose: () => void log.push(`dispose ${label}`),
    execute: async () => {
      log.push(`execute ${label}`)
      if (blocking) await gate
      log.push(`done ${label}`)
      return label
    },
    release: () => release(),
  }
}

describe('tools replaced through updateConfig are disposed', () => {
  it('after their running execution settles, exactly once (clear() does not dispose them again)', async () => {
    const log: string[] = []
    const old = loggedTool('old', log, true)
    const replacement = loggedTool('new', log)
    const { controller } = setup([[call('c1', 'fetch')], 'first', [call('c2', 'fetch')], 'second'], { tools: [old] })
    const sending = controller.send('one')
    await settle()
    expect(log).toEqual(['init old', 'execute old'])
    controller.updateConfig({ tools: [replacement] })
    await settle()
    expect(log).toEqual(['init old', 'execute old']) // still running: not disposed yet
    old.release()
    await sending
    await settle()
    expect(log).toEqual(['init old', 'execute old', 'done old', 'dispose old'])
    expect(controller.getState().messages[1]?.toolCalls?.[0]?.result).toBe('old')
    await controller.send('two')
    await controller.clear()
    expect(log).toEqual(['init old', 'execute old', 'done old', 'dispose old', 'init new', 'execute new', 'done new', 'dispose new'])
  })

  it('at once when idle; never when it was never initialized; not when the same definition stays', async () => {
    const log: string[] = []
    const used = loggedTool('used', log)
    const unused = loggedTool('unused', log)
    const { controller } = setup([[call('c1', 'fetch')], 'ok'], { tools: [used] })
    await controller.send('q')
    controller.updateConfig({ tools: [used] })
    controller.updateConfig({ tools: [...[used]] })
    await settle()
    expect(log).toEqual(['init used', 'execute used', 'done used'])
    controller.updateConfig({ tools: [unused] })
    controller.updateConfig({ tools: [] })
    await settle()
    expect(log).toEqual(['init used', 'execute used', 'done used', 'dispose used'])
  })

  it('a definition rebuilt with the same functions keeps its lifecycle: no dispose, no second init', async () => {
    const log: string[] = []
    const tool = loggedTool('t', log)
    const { controller } = setup([[call('c1', 'fetch')], 'a', [call('c2', 'fetch')], 'b'], { tools: [tool] })
    await controller.send('one')
    controller.updateConfig({ tools: [{ ...tool, description: 'same functions, new object' }] })
    await settle()
    await controller.send('two')
    expect(log).toEqual(['init t', 'execute t', 'done t', 'execute t', 'done t'])
    await controller.clear()
    expect(log.filter((line) => line.startsWith('dispose'))).toEqual(['dispose t'])
  })

  it('a failing dispose is swallowed and the chat keeps working', async () => {
    const log: string[] = []
    const old: ToolDefinition = { ...loggedTool('old', log), dispose: () => {
      log.push('dispose old')
      throw new Error('dispose failed')
    } }
    const { controller } = setup([[call('c1', 'fetch')], 'a', 'b'], { tools: [old] })
    await controller.send('one')
    controller.updateConfig({ tools: [] })
    await settle()
    expect(log).toContain('dispose old')
    await controller.send('two')
    expect(controller.getState().status).toBe('idle')
  })
})
