// @vitest-environment happy-dom
import { readFileSync, readdirSync } from 'node:fs'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import ts from 'typescript'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { ChatSession } from '../../renderers/react/chat-session.js'
import { RemoteChatSession } from '../../renderers/react/remote-chat-session.js'
import { serverSideAgent } from '../../src/view/server-side-agent.js'
import { preloadDialogUI } from '../../renderers/react/dialog-ui-loader.js'
import { ChatLabelsContext, type ChatLabels } from '../../renderers/react/labels.js'
import { ActionApprovalCard } from '../../renderers/react/action-approval-card.js'
import { preloadMessageUI } from '../../renderers/react/message-ui-loader.js'
import { statusWordsOf } from '../../renderers/react/state-badge.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { countingAdapter, supportChat } from './support-chat.js'
import { commandRoute, defineChat, eventRoute } from '../../src/conversation/index.js'

afterEach(cleanup)
beforeAll(async () => { await preloadMessageUI(); await preloadDialogUI() })

const french: Partial<ChatLabels> = {
  title: 'Discussion',
  messages: 'Messages échangés',
  message: 'Votre message',
  placeholder: 'Écrivez un message…',
  send: 'Envoyer',
  stop: 'Arrêter',
  ready: 'Prêt',
  working: 'En cours…',
  waitingAnswer: 'En attente de votre réponse',
  dialogAbove: 'ci-dessus ↑',
  you: 'Vous',
  assistant: 'Assistant·e',
  greeting: 'Comment puis-je aider ?',
  suggestions: 'Suggestions rapides',
  actions: 'Actions possibles',
  copyMessage: 'Copier le message',
  regenerate: 'Régénérer',
  agentAsks: 'L’agent demande',
  answer: 'Répondre',
  other: 'Autre',
}

async function type(text: string): Promise<void> {
  const box = screen.getByRole('textbox', { name: 'Votre message' })
  fireEvent.change(box, { target: { value: text } })
  await act(async () => { fireEvent.keyDown(box, { key: 'Enter' }) })
}

describe('<ChatSession labels>: every word of the UI from one object', () => {
  it('a French labels object renders French in the status line, the composer, the messages, their actions and a dialog card', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    render(<ChatSession definition={supportChat(agent)} options={{ lint: false }} labels={french} />)
    expect(screen.getByRole('region', { name: 'Discussion' })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('Welcome Prêt')
    expect(screen.getByText('Comment puis-je aider ?')).toBeTruthy()
    expect(screen.getByRole('list', { name: 'Suggestions rapides' })).toBeTruthy()
    expect(screen.getByRole('textbox', { name: 'Votre message' }).getAttribute('placeholder')).toBe('Écrivez un message…')
    expect(screen.getByRole('button', { name: 'Envoyer' })).toBeTruthy()

    await type('/start')
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Triage Prêt'))
    const log = screen.getByRole('log', { name: 'Messages échangés' })
    expect(within(log).getAllByRole('article').map((article) => article.getAttribute('aria-label'))).toEqual(['Vous', 'Assistant·e'])
    const reply = within(log).getAllByRole('article').at(-1) as HTMLElement
    expect(within(reply).getByRole('button', { name: 'Copier le message' })).toBeTruthy()
    expect(within(reply).getByRole('button', { name: 'Régénérer' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Actions possibles' })).toBeTruthy()

    // What the labels leave out stays English.
    await type('please ask me first')
    const card = await screen.findByRole('region', { name: 'L’agent demande' })
    expect(within(card).getByRole('button', { name: 'Répondre' })).toBeTruthy()
    expect(within(card).getByRole('button', { name: 'Répondre' }).textContent).toBe('Répondre')
    expect(screen.getByRole('button', { name: 'En attente de votre réponse ci-dessus ↑' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Arrêter' })).toBeTruthy()
    expect(screen.queryByText(/Type a message|Send|Ready/)).toBeNull()
  })

  it('<RemoteChatSession labels> too (server HTML)', () => {
    const refuse = (): Promise<Response> => Promise.reject(new Error('no server in this test'))
    const html = renderToString(<RemoteChatSession definition={supportChat(serverSideAgent)} remote={{ api: 'http://127.0.0.1:9/api/chat', conversationId: 'c1', fetch: refuse }} labels={french} />)
    expect(html).toContain('aria-label="Discussion"')
    expect(html).toContain('<span>Envoyer</span>')
    expect(html).toContain('placeholder="Écrivez un message…"')
    expect(html).not.toContain('Send')
  })

  it('statusWordsOf takes the labels too (English by default)', () => {
    expect(statusWordsOf('idle', undefined, true)).toBe('Finished')
    expect(statusWordsOf('idle', undefined, true, false, { ...frenchStatus, finished: 'Terminé' })).toBe('Terminé')
  })
})

describe('event buttons and chips say what the definition\'s eventLabels say', () => {
  const definition = defineChat({
    id: 'labelled',
    chat: { adapter: countingAdapter() },
    conversation: {
      initial: 'open',
      states: { open: { on: { ESCALATE: 'human' } }, human: { on: { RESOLVE: 'open' } } },
      routes: [
        commandRoute({ id: 'hello', command: '/hello', response: 'Hi.' }),
        eventRoute({ id: 'escalate', uiEvent: 'talk_to_human', event: 'ESCALATE', response: 'Connecting you.' }),
        eventRoute({ id: 'resolve', uiEvent: 'RESOLVE', event: 'RESOLVE', response: 'Back.' }),
      ],
      eventLabels: { talk_to_human: 'Talk to a person', RESOLVE: 'It is solved' },
    },
  })

  it('a chip and an event button show the definition\'s label, not the raw name; the eventLabels prop still wins', async () => {
    const { unmount } = render(<ChatSession definition={definition} options={{ lint: false }} />)
    expect(screen.getByRole('button', { name: 'Talk to a person' })).toBeTruthy()
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Talk to a person' })) })
    await waitFor(() => expect(screen.getByRole('button', { name: 'It is solved' })).toBeTruthy())
    expect(screen.queryByRole('button', { name: /talk_to_human|RESOLVE|Resolve/ })).toBeNull()
    unmount()
    render(<ChatSession definition={definition} options={{ lint: false }} eventLabels={{ talk_to_human: 'Ask for a human' }} />)
    expect(screen.getByRole('button', { name: 'Ask for a human' })).toBeTruthy()
  })
})

describe('the approval card of chatrail/react/actions speaks the labels too', () => {
  const record = { token: 't1', status: 'pending' as const, action: { name: 'refund', input: { order: 'A1' } }, expiresAt: Number.MAX_SAFE_INTEGER }
  const noop = (): Promise<void> => Promise.resolve()

  it('Approve/Reject and its accessible name in French inside the labels context, English without it', () => {
    const french = { approve: 'Approuver', reject: 'Refuser', confirmAction: (name: string) => `Confirmer ${name}` }
    const html = renderToString(<ChatLabelsContext.Provider value={french}><ActionApprovalCard record={record} onApprove={noop} onReject={noop} /></ChatLabelsContext.Provider>)
    expect(html).toContain('>Approuver</button>')
    expect(html).toContain('>Refuser</button>')
    expect(html).toContain('aria-label="Confirmer refund"')
    expect(html).not.toContain('Approve')
    const english = renderToString(<ActionApprovalCard record={{ ...record, status: 'approved', outcome: { status: 'error' } }} onApprove={noop} onReject={noop} />)
    expect(english).toContain('Approved')
    expect(english).toContain('(the action failed)')
  })
})

const frenchStatus = { waitingElsewhere: 'a', waitingReview: 'b', waitingAnswer: 'c', working: 'd', failed: 'e', finished: 'f', ready: 'g' }

/**
 * The defaults files are the only place the UI's words are written: a scan of the renderers for
 * JSX text and accessible-name literals.
 */
describe('no hard-coded English in renderers/react outside the defaults', () => {
  const dir = 'renderers/react'
  const files = readdirSync(dir).filter((file) => file.endsWith('.tsx'))
  const named = new Set(['aria-label', 'title', 'placeholder', 'label', 'alt'])

  /** JSX text with a word in it, and string literals given to a name, a title, a label or a placeholder (parsed, not grepped). */
  function wordsIn(fileName: string, source: string): string[] {
    const found: string[] = []
    const visit = (node: ts.Node): void => {
      if (ts.isJsxText(node) && /[A-Za-z]{2,}/.test(node.text)) found.push(node.text.trim())
      if (ts.isJsxAttribute(node) && named.has(node.name.getText()) && node.initializer !== undefined) {
        const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer
        if (value !== undefined && (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value) || ts.isTemplateExpression(value)) && /[A-Za-z]{2,}/.test(value.getText())) found.push(value.getText())
      }
      ts.forEachChild(node, visit)
    }
    visit(ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX))
    return found
  }

  it.each(files)('%s', (file) => {
    expect(wordsIn(file, readFileSync(`${dir}/${file}`, 'utf8'))).toEqual([])
  })

  it('the scan finds a hard-coded word (it can fail)', () => {
    expect(wordsIn('x.tsx', 'const a = <ul aria-label="Suggestions"><li title={`Tool ${name}`}><button type="button">Send</button></li></ul>'))
      .toEqual(['"Suggestions"', '`Tool ${name}`', 'Send'])
  })
})
