// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeAll, expect, it, vi } from 'vitest'
import { ChatLabelsContext } from '../../renderers/react/labels.js'
import { preloadMessageUI } from '../../renderers/react/message-ui-loader.js'
import { MessageUIPart } from '../../renderers/react/message-ui-part.js'
import { useLabels, useMessageUIKit } from '../../renderers/react/message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'

// What the entry hands the message UI chunk instead of sharing modules with it (message-ui-context.ts).

afterEach(cleanup)
beforeAll(() => preloadMessageUI())

function KitProbe(): ReactNode {
  const kit = useMessageUIKit()
  const words = useLabels(messageLabels)
  return <p>{kit.humanizeEvent('talk_to_human')} · {words.copied} · {words.retry}</p>
}

it('a part drawn through <MessageUIPart> gets the entry\'s kit and the app\'s labels over the chunk\'s defaults', () => {
  render(
    <ChatLabelsContext value={{ copied: 'Copié' }}>
      <MessageUIPart fallback={null} render={() => <KitProbe />} />
    </ChatLabelsContext>,
  )
  expect(screen.getByText('Talk to human · Copié · Retry')).toBeTruthy()
})

it('a part of the message UI drawn without <MessageUIPart> fails with a ChatrailError that says where to render it', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  expect(() => render(<KitProbe />)).toThrow(expect.objectContaining({ name: 'ChatrailError', code: 'NO_MESSAGE_UI_KIT', hint: expect.stringContaining('<MessageUIPart>') }))
  vi.restoreAllMocks()
})
