import { commandRoute, defineChat, eventRoute } from '../../src/index.js'
import type { ChatDefinition } from '../../src/index.js'
import { defineComponents, standardCatalog } from '../../src/components/index.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'

const components = defineComponents(standardCatalog)

/** `/pick` answers with a choice list (instance `next`); each choice is an event route. For the view's component tests. */
export function choiceChat(adapter: AdapterFactory): ChatDefinition {
  return defineChat({
    id: 'view-components',
    chat: { adapter },
    components,
    conversation: {
      initial: 'idle',
      states: { idle: {} },
      routes: [
        commandRoute({
          id: 'pick',
          command: '/pick',
          response: () => ['Pick one:', components.render('choice-list', { prompt: 'Which?', choices: [{ id: 'reship', label: 'Reship' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'next' })],
        }),
        eventRoute({ id: 'refund', uiEvent: 'refund', response: 'Refund on its way.' }),
        eventRoute({ id: 'reship', uiEvent: 'reship', response: 'Reshipping.' }),
      ],
      fallback: { response: 'Say /pick.' },
    },
  })
}
