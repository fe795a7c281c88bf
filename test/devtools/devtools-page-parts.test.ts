import { describe, expect, it } from 'vitest'
import type { DevtoolsDefinition, DevtoolsTurn } from '../../src/devtools/devtools-api.js'
import { detailQueryString, listQueryString } from '../../renderers/devtools/devtools-client.js'
import { ANY_NODE, diagramGraphOf, RESTART_NODE, takenPathOf } from '../../renderers/devtools/diagram-graph.js'
import { layoutDiagram, START_NODE } from '../../renderers/devtools/diagram-layout.js'
import { watchConversations } from '../../renderers/devtools/live-events.js'
import { takenEdges } from '../../renderers/devtools/state-diagram.js'

// The devtools page's parts that decide something without a browser: the query string, the
// diagram's graph and taken path, dagre's layout of it, and the live events' reading and reconnects.

const definition: DevtoolsDefinition = {
  id: 'shop',
  revision: 2,
  initial: 'idle',
  mermaid: '',
  states: [
    { name: 'idle', initial: true, final: false, events: ['start', 'cancel'], routes: ['start'], actions: [] },
    { name: 'asking', initial: false, final: false, events: ['done', 'cancel'], routes: ['done'], actions: [] },
    { name: 'finished', initial: false, final: true, events: [], routes: ['again'], actions: [] },
  ],
  transitions: [
    { from: 'idle', event: 'start', to: 'asking', guarded: false, inherited: false },
    { from: 'asking', event: 'done', to: 'finished', guarded: true, inherited: false },
    { from: 'idle', event: 'cancel', to: 'idle', guarded: false, inherited: true },
    { from: 'asking', event: 'cancel', to: 'idle', guarded: false, inherited: true },
  ],
  routes: [
    { id: 'start', kind: 'command', event: 'start', restart: false, matches: '/start' },
    { id: 'done', kind: 'text', event: 'done', states: ['asking'], restart: false, matches: '"done"' },
    { id: 'cancel', kind: 'command', event: 'cancel', restart: false, matches: '/cancel' },
    { id: 'again', kind: 'command', states: ['finished'], restart: true, matches: '/again' },
  ],
}

const turn = (index: number, fromState: string, toState: string): DevtoolsTurn => ({
  index, userMessageId: `u${index}`, answerIds: [`a${index}`], kind: 'deterministic', routeId: null, event: null, restart: false, fromState, toState,
  record: null, signature: 'unsigned', recordStale: false, timings: {}, adapterCalls: [], startedAt: '2026-12-02T10:00:00.000Z',
})

describe('the devtools page parts', () => {
  it('writes the list query the API reads: failed=1, absent fields left out', () => {
    expect(listQueryString({})).toBe('')
    expect(listQueryString({ limit: 50, state: 'idle', lastKind: 'failed', failed: true, revision: 3, cursor: 'a b' })).toBe('?limit=50&cursor=a+b&revision=3&state=idle&lastKind=failed&failed=1')
    expect(listQueryString({ failed: false })).toBe('')
  })

  it('writes the detail query the API reads: turns and before, absent ones left out', () => {
    expect(detailQueryString({})).toBe('')
    expect(detailQueryString({ turns: 50, before: 'u-7' })).toBe('?turns=50&before=u-7')
  })

  it('draws a conversation-level transition once, from the shared node, and restart routes from theirs', () => {
    const graph = diagramGraphOf(definition)
    expect(graph.edges).toEqual([
      { from: 'idle', to: 'asking', label: 'start (start)' },
      { from: 'asking', to: 'finished', label: 'done (done) [guarded]' },
      { from: ANY_NODE, to: 'idle', label: 'cancel (cancel)' },
      { from: RESTART_NODE, to: 'idle', label: 'restart (again)' },
    ])
    expect(graph.states.map((state) => [state.name, state.final])).toEqual([['idle', false], ['asking', false], ['finished', true]])
  })

  it('marks the taken path: direct edges, and a move no own edge explains through the shared edge into its target', () => {
    const turns = [turn(0, 'idle', 'asking'), turn(1, 'asking', 'asking'), turn(2, 'asking', 'idle'), turn(3, 'idle', 'asking'), turn(4, 'asking', 'finished')]
    const taken = takenPathOf(turns)
    expect(taken).toEqual([{ from: 'idle', to: 'asking' }, { from: 'asking', to: 'idle' }, { from: 'idle', to: 'asking' }, { from: 'asking', to: 'finished' }])
    const layout = layoutDiagram(diagramGraphOf(definition))
    const marked = takenEdges(layout.edges, taken, new Set(['idle', 'asking', 'finished']))
    expect([...marked].sort().map((index) => layout.edges.find((edge) => edge.index === index)?.label)).toEqual(['start (start)', 'done (done) [guarded]', 'cancel (cancel)'])
  })

  it('lays every state and shared node out with dagre, the initial state below the start dot, inside the drawing', () => {
    const layout = layoutDiagram(diagramGraphOf(definition))
    const byName = new Map(layout.nodes.map((node) => [node.name, node]))
    expect([...byName.keys()].sort()).toEqual([START_NODE, ANY_NODE, RESTART_NODE, 'asking', 'finished', 'idle'].sort())
    expect((byName.get('idle')?.y ?? 0)).toBeGreaterThan(byName.get(START_NODE)?.y ?? 0)
    expect((byName.get('finished')?.y ?? 0)).toBeGreaterThan(byName.get('asking')?.y ?? 0)
    for (const node of layout.nodes) {
      expect(node.x - node.width / 2).toBeGreaterThanOrEqual(0)
      expect(node.x + node.width / 2).toBeLessThanOrEqual(layout.width)
      expect(node.y + node.height / 2).toBeLessThanOrEqual(layout.height)
    }
    for (const edge of layout.edges) expect(edge.points.length).toBeGreaterThanOrEqual(2)
    expect(layoutDiagram(diagramGraphOf(definition))).toEqual(layout)
  })

  it('reads the live events, skips malformed data, reconnects after the stream ends, and stops on abort', async () => {
    const streams = [
      'retry: 250\nevent: ready\ndata: {"now":"2026-12-02T10:00:00.000Z","pollMs":100}\n\nevent: conversation\ndata: {"id":"c1","version":2}\n\nevent: conversation\ndata: {not json\n\n: heartbeat\n\n',
      'event: ready\ndata: {"now":"2026-12-02T10:00:01.000Z","pollMs":100}\n\nevent: conversation\ndata: {"id":"c2","version":1}\n\n',
    ]
    const controller = new AbortController()
    const changed: string[] = []
    const statuses: string[] = []
    const pauses: number[] = []
    let opened = 0
    await watchConversations({
      events: async () => {
        const text = streams[opened]
        opened += 1
        if (text === undefined) {
          controller.abort()
          throw new Error('aborted')
        }
        return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
      },
    }, {
      signal: controller.signal,
      onChange: (event) => changed.push(`${event.id}@${event.version}`),
      onStatus: (status) => statuses.push(status),
      sleep: async (ms) => { pauses.push(ms) },
    })
    expect(changed).toEqual(['c1@2', 'c2@1'])
    // the server's retry: wins over the ready event's poll interval; the second stream named none but its poll interval
    expect(pauses).toEqual([250, 100])
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting', 'reconnecting', 'live', 'reconnecting', 'reconnecting'])
    expect(opened).toBe(3)
  })
})
