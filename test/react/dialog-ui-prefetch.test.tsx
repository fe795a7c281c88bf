// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, expect, it, vi } from 'vitest'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { supportChat } from './support-chat.js'

// Counts loads of the lazily loaded dialog UI chunk (the real module is handed back).
const chunk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../renderers/react/dialog-ui.js', async (importOriginal) => {
  chunk.loads += 1
  return importOriginal()
})

afterEach(cleanup)
// Only the dialog UI's loads are counted; the message UI chunk is in beforehand (renders are synchronous).
beforeAll(() => preloadMessageUI())

it('a chat with a live agent starts loading the dialog UI at mount, before any dialog arrives', async () => {
  render(<ChatSession definition={supportChat(createScriptedAgent({ chunkDelayMs: 0 }))} options={{ lint: false }} />)
  expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy()
  await waitFor(() => expect(chunk.loads).toBe(1))
  expect(document.querySelector('[data-chatrail-dialog]')).toBeNull()
})
