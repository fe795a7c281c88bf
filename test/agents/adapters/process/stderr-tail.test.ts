import { describe, expect, it } from 'vitest'
import { createStderrTail } from '../../../../src/agents/process/stderr-tail.js'

describe('createStderrTail', () => {
  it('keeps everything while under the cap, trimmed', () => {
    const tail = createStderrTail(100)
    tail.append('warning: one\n')
    tail.append(Buffer.from('error: two\n'))
    expect(tail.text()).toBe('warning: one\nerror: two')
  })

  it('keeps only the newest whole lines once over the cap', () => {
    const tail = createStderrTail(24)
    for (let i = 0; i < 10; i += 1) tail.append(`line number ${i}\n`)
    expect(tail.text()).toBe('line number 9')
  })

  it('drops a multi-byte character cut at the start of a single long line', () => {
    const tail = createStderrTail(5)
    tail.append('ééééé')
    const text = tail.text()
    expect(text).not.toContain('\uFFFD')
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(5)
  })
})
