import { expect, it, vi } from 'vitest'
import { createChatController, RuntimeError } from '../../src/controller/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

// The first load of a turn's code fails (a flaky network, a stale deploy), later ones work.
const chunk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../src/controller/model-turn.js', async (importOriginal) => {
  chunk.loads += 1
  if (chunk.loads === 1) throw new Error('Failed to fetch dynamically imported module')
  return importOriginal()
})

it("a turn whose code fails to load ends in error, as data, and the next turn loads it again", async () => {
  const errors: Error[] = []
  const controller = createChatController({ adapter: scriptedAdapter(['the answer']), onError: (error) => void errors.push(error) })
  await controller.send('hello')
  const failed = controller.getState()
  expect(failed.status).toBe('error')
  expect(RuntimeError.isInstance(failed.error)).toBe(true)
  expect(failed.error).toMatchObject({ code: 'AK_RUNTIME_STEP_FAILED' })
  expect(failed.error?.message).toMatch(/^The turn could not start: its code did not load \(.+\)$/)
  expect(failed.messages.map((message) => [message.role, message.content, message.status])).toEqual([['user', 'hello', 'complete'], ['assistant', '', 'error']])
  expect(errors).toEqual([failed.error])
  expect(chunk.loads).toBe(1)

  await controller.retry()
  expect(chunk.loads).toBe(2)
  expect(controller.getState().status).toBe('idle')
  expect(controller.getState().messages.map((message) => [message.role, message.content, message.status])).toEqual([['user', 'hello', 'complete'], ['assistant', 'the answer', 'complete']])
})
