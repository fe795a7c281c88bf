import { describe, expect, it } from 'vitest'
import { AdapterError, buildMessage, ErrorCodes, safeParseArgs, ToolError } from '../../src/controller/index.js'
import { ChatrailError } from '../../src/index.js'

describe('controller helpers exported from chatrail/controller', () => {
  it('buildMessage defaults to status complete and uses the injected id and clock', () => {
    const at = new Date('2026-02-03T04:05:06Z')
    const message = buildMessage({ role: 'user', content: 'hi' }, { ids: () => 'fixed', clock: () => at })
    expect(message).toEqual({ id: 'fixed', role: 'user', content: 'hi', status: 'complete', createdAt: at })
    expect(message.createdAt).not.toBe(at) // a copy: mutating it cannot move the clock
    expect(Object.keys(message)).not.toContain('metadata')
    expect(buildMessage({ role: 'tool', content: 'r', toolCallId: 't1', status: 'streaming' }).toolCallId).toBe('t1')
  })

  it('safeParseArgs keeps JSON objects and turns anything else into {}', () => {
    expect(safeParseArgs('{"a":1,"b":{"c":[2]}}')).toEqual({ a: 1, b: { c: [2] } })
    expect(safeParseArgs('not json')).toEqual({})
    expect(safeParseArgs('[1,2]')).toEqual({})
    expect(safeParseArgs('null')).toEqual({})
    expect(safeParseArgs('"str"')).toEqual({})
  })

  it('errors carry codes, a formatted toString, and cross-bundle isInstance guards', () => {
    const error = new ToolError({ code: ErrorCodes.AK_TOOL_FORBIDDEN, message: 'no', hint: 'ask an admin' })
    expect(error.name).toBe('ToolError')
    expect(error.toString()).toBe('error[AK_TOOL_FORBIDDEN]: no\n  hint: ask an admin')
    expect(ToolError.isInstance(error)).toBe(true)
    expect(ChatrailError.isInstance(error)).toBe(true)
    expect(AdapterError.isInstance(error)).toBe(false)
    // A structurally foreign copy (another bundle) is still recognized through the Symbol.for marker.
    const foreign = Object.create({ [Symbol.for('chatrail.error.ToolError')]: true, [Symbol.for('chatrail.error')]: true }) as unknown
    expect(ToolError.isInstance(foreign)).toBe(true)
  })
})
