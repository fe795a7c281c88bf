import dagre from '@dagrejs/dagre'

/**
 * The state diagram's geometry: a definition's states and transitions laid out by dagre (a
 * maintained layered-graph layout, the one Mermaid uses), never by hand. Only the lazily loaded
 * diagram chunk imports this file, so dagre is downloaded when a diagram is first shown and never
 * by chatrail/react. Pure: the same graph gives the same layout.
 */

export interface DiagramState {
  readonly name: string
  readonly final: boolean
}

export interface DiagramEdge {
  /** A state name, or a shared node (`*` for conversation-level transitions). */
  readonly from: string
  readonly to: string
  readonly label: string
}

export interface DiagramGraph {
  readonly initial: string
  readonly states: readonly DiagramState[]
  readonly edges: readonly DiagramEdge[]
}

export interface PlacedNode {
  readonly name: string
  readonly label: string
  readonly final: boolean
  /** A shared node (conversation-level or restart transitions), not a state. */
  readonly shared: boolean
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface PlacedEdge {
  readonly index: number
  readonly from: string
  readonly to: string
  readonly label: string
  readonly points: readonly { readonly x: number; readonly y: number }[]
  readonly labelX: number
  readonly labelY: number
}

export interface DiagramLayout {
  readonly width: number
  readonly height: number
  readonly nodes: readonly PlacedNode[]
  readonly edges: readonly PlacedEdge[]
}

/** The invisible start node the initial state's arrow comes from. */
export const START_NODE = '\u0000start'

const CHAR_WIDTH = 7.2
const NODE_HEIGHT = 34
const LABEL_HEIGHT = 16

const textWidth = (text: string): number => Math.ceil(text.length * CHAR_WIDTH)

/** Lays `graph` out top to bottom; shared nodes are the `from` names that are not states. */
export function layoutDiagram(graph: DiagramGraph, sharedLabels: Readonly<Record<string, string>> = {}): DiagramLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true })
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 36, edgesep: 12, marginx: 12, marginy: 12 })
  g.setDefaultEdgeLabel(() => ({}))
  const names = new Set(graph.states.map((state) => state.name))
  const nodes = new Map<string, Omit<PlacedNode, 'x' | 'y'>>()
  for (const state of graph.states) nodes.set(state.name, { name: state.name, label: state.name, final: state.final, shared: false, width: textWidth(state.name) + 28, height: NODE_HEIGHT })
  for (const edge of graph.edges) {
    for (const end of [edge.from, edge.to]) {
      if (names.has(end) || nodes.has(end)) continue
      const label = sharedLabels[end] ?? end
      nodes.set(end, { name: end, label, final: false, shared: true, width: textWidth(label) + 20, height: NODE_HEIGHT - 8 })
    }
  }
  nodes.set(START_NODE, { name: START_NODE, label: '', final: false, shared: true, width: 12, height: 12 })
  for (const node of nodes.values()) g.setNode(node.name, { width: node.width, height: node.height })
  g.setEdge(START_NODE, graph.initial, { width: 0, height: 0 }, 'start')
  graph.edges.forEach((edge, index) => {
    g.setEdge(edge.from, edge.to, { label: edge.label, width: textWidth(edge.label), height: LABEL_HEIGHT, labelpos: 'c' }, String(index))
  })
  dagre.layout(g)
  const placed: PlacedNode[] = [...nodes.values()].map((node) => {
    const at = g.node(node.name)
    return { ...node, x: at.x, y: at.y }
  })
  const edges: PlacedEdge[] = []
  const startEdge = g.edge({ v: START_NODE, w: graph.initial, name: 'start' })
  edges.push({ index: -1, from: START_NODE, to: graph.initial, label: '', points: startEdge.points ?? [], labelX: 0, labelY: 0 })
  graph.edges.forEach((edge, index) => {
    const at = g.edge({ v: edge.from, w: edge.to, name: String(index) })
    edges.push({ index, from: edge.from, to: edge.to, label: edge.label, points: at.points ?? [], labelX: at.x ?? 0, labelY: at.y ?? 0 })
  })
  const size = g.graph()
  return { width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), nodes: placed, edges }
}
