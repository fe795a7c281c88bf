import type { AdapterFactory } from '../../../src/contract/adapter.js'
import { commandRoute, defineChat, eventRoute, type ChatDefinition } from '../../../src/index.js'
import { defineComponent, defineComponents, standardCatalog } from '../../../src/components/index.js'
import type { StandardSchemaV1 } from '../../../src/components/index.js'

/** A component only the server's registry knows: on the page it is an unknown key. */
const orderProps: StandardSchemaV1<unknown, { order: string }> = {
  '~standard': {
    version: 1,
    vendor: 'chatrail-test',
    validate: (value) => (typeof (value as { order?: unknown } | null)?.order === 'string' ? { value: value as { order: string } } : { issues: [{ message: 'an order' }] }),
  },
}
export const orderCard = defineComponent({ key: 'order-card', props: orderProps, accessibility: { role: 'article' }, fallback: (props) => `Order ${props.order}: 40 EUR` })

const serverComponents = defineComponents([...standardCatalog, orderCard])
const pageComponents = defineComponents(standardCatalog)

/**
 * The component browser test's workflow: `/lost` answers with text, a table, a choice list and
 * a component the page does not know. The server runs it with its registry (and an agent); the
 * page reads routes from it with the standard catalog only (`page: true`).
 */
export function componentDefinition(adapter: AdapterFactory, options: { page?: boolean } = {}): ChatDefinition {
  return defineChat({
    id: 'component-views',
    chat: { adapter },
    components: options.page === true ? pageComponents : serverComponents,
    conversation: {
      initial: 'idle',
      states: { idle: {} },
      routes: [
        commandRoute({
          id: 'lost',
          command: '/lost',
          response: () => [
            'Sorry about your **card**.',
            serverComponents.render('table', { caption: 'Your orders', columns: [{ key: 'id', label: 'Order' }, { key: 'item', label: 'Item' }, { key: 'total', label: 'Total' }], rows: [{ id: '12345', item: 'Debit card', total: 40 }, { id: '12346', item: 'Card holder', total: 5 }] }),
            serverComponents.render('order-card', { order: '12345' }),
            serverComponents.render('choice-list', { prompt: 'What should happen now?', choices: [{ id: 'reship', label: 'Reship', description: 'free, 3 days' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'next-step' }),
          ],
        }),
        eventRoute({ id: 'reship', uiEvent: 'reship', response: 'Reshipping your card.' }),
        eventRoute({ id: 'refund', uiEvent: 'refund', response: 'Refund on its way.' }),
      ],
      fallback: { response: 'Say /lost.' },
    },
  })
}
