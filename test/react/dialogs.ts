import type { Dialog } from '../../src/contract/dialog.js'
import type { Message } from '../../src/contract/message.js'

/** Dialog and message builders shared by the React tests. */

export function questionDialog(toolId: string, overrides: Partial<Dialog> = {}): Dialog {
  return {
    toolId,
    kind: 'question',
    prompt: 'Which plan are you on?',
    options: [{ label: 'Free' }, { label: 'Pro', description: 'Email support' }, { label: 'Other', isOther: true }],
    multiSelect: false,
    answerable: true,
    ...overrides,
  }
}

export function planDialog(toolId: string, prompt: string): Dialog {
  return { toolId, kind: 'plan', prompt, options: [], multiSelect: false, answerable: true }
}

export function message(id: string, role: Message['role'], content: string, extra: Partial<Message> = {}): Message {
  return { id, role, content, status: 'complete', createdAt: new Date(0), ...extra }
}
