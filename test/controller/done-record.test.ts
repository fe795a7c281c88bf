import { describe, expect, it } from 'vitest'
import { setup } from './harness.js'

describe('done records', () => {
  it("keeps a done chunk's metadata.chatrail on the answer, so state can be rebuilt from stored history", async () => {
    const record = { v: 1, event: 'start', fromState: 'idle', toState: 'collecting' }
    const { controller } = setup([[{ type: 'text', content: 'ok' }, { type: 'done', metadata: { chatrail: record, other: 1 } }]])
    await controller.send('/start')
    const answer = controller.getState().messages.at(-1)
    expect(answer?.metadata?.chatrail).toEqual(record)
    // every other chunk metadata stays ignored, as upstream
    expect(answer?.metadata).not.toHaveProperty('other')
  })

  it('ignores a chatrail value that is not an object', async () => {
    const { controller } = setup([[{ type: 'text', content: 'ok' }, { type: 'done', metadata: { chatrail: 'x' } }]])
    await controller.send('hi')
    expect(controller.getState().messages.at(-1)?.metadata?.chatrail).toBeUndefined()
  })
})
