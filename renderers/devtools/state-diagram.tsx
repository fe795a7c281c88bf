import { useMemo, type KeyboardEvent, type ReactNode } from 'react'
import { layoutDiagram, START_NODE, type DiagramGraph, type PlacedEdge, type PlacedNode } from './diagram-layout.js'

/**
 * The state diagram as SVG (the lazily loaded chunk: this file and dagre). The layout is dagre's;
 * drawing it is a few rects, paths and texts, so it follows the page's colours (CSS variables,
 * light and dark) and every state is a keyboard-reachable button. The conversation's current state
 * and the transitions it took are marked with a class and an attribute the tests and styles read,
 * never with colour alone (a thicker border, a "current" word in the label for screen readers).
 */

export interface StateDiagramProps {
  readonly graph: DiagramGraph
  /** Labels of the shared nodes (`from` names that are not states). */
  readonly sharedLabels?: Readonly<Record<string, string>>
  readonly current?: string
  /** The transitions the conversation took, oldest first. */
  readonly taken?: readonly { readonly from: string; readonly to: string }[]
  readonly selected?: string
  readonly onSelect?: (state: string) => void
  readonly label: string
}

/** Edge indexes on the taken path: a direct edge, or else a shared (conversation-level) one into the same target. */
export function takenEdges(edges: readonly PlacedEdge[], taken: readonly { from: string; to: string }[], stateNames: ReadonlySet<string>): Set<number> {
  const marked = new Set<number>()
  for (const step of taken) {
    if (step.from === step.to) continue
    const direct = edges.find((edge) => edge.from === step.from && edge.to === step.to)
    const shared = direct ?? edges.find((edge) => edge.to === step.to && !stateNames.has(edge.from) && edge.from !== START_NODE)
    if (shared !== undefined) marked.add(shared.index)
  }
  return marked
}

function pathOf(points: readonly { x: number; y: number }[]): string {
  return points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ')
}

function Node({ node, current, visited, selected, onSelect }: { node: PlacedNode; current: boolean; visited: boolean; selected: boolean; onSelect?: (state: string) => void }): ReactNode {
  const left = node.x - node.width / 2
  const top = node.y - node.height / 2
  if (node.name === START_NODE) return <circle cx={node.x} cy={node.y} r={6} data-devtools-diagram-start="" />
  if (node.shared) {
    return (
      <g data-devtools-diagram-shared="">
        <rect x={left} y={top} width={node.width} height={node.height} rx={4} />
        <text x={node.x} y={node.y} dominantBaseline="central" textAnchor="middle">{node.label}</text>
      </g>
    )
  }
  const activate = (): void => onSelect?.(node.name)
  const onKeyDown = (event: KeyboardEvent<SVGGElement>): void => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      activate()
    }
  }
  return (
    <g
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`${node.name}${current ? ' (current state)' : ''}${node.final ? ' (final)' : ''}`}
      data-devtools-state={node.name}
      {...(current ? { 'data-devtools-current': '' } : {})}
      {...(visited ? { 'data-devtools-visited': '' } : {})}
      {...(selected ? { 'data-devtools-selected': '' } : {})}
      onClick={activate}
      onKeyDown={onKeyDown}
    >
      <rect x={left} y={top} width={node.width} height={node.height} rx={node.height / 2} />
      {node.final && <rect x={left + 3} y={top + 3} width={node.width - 6} height={node.height - 6} rx={(node.height - 6) / 2} data-devtools-final-ring="" />}
      <text x={node.x} y={node.y} dominantBaseline="central" textAnchor="middle">{node.label}</text>
    </g>
  )
}

export function StateDiagram({ graph, sharedLabels, current, taken = [], selected, onSelect, label }: StateDiagramProps): ReactNode {
  const layout = useMemo(() => layoutDiagram(graph, sharedLabels), [graph, sharedLabels])
  const stateNames = useMemo(() => new Set(graph.states.map((state) => state.name)), [graph])
  const marked = useMemo(() => takenEdges(layout.edges, taken, stateNames), [layout, taken, stateNames])
  const visited = useMemo(() => new Set(taken.flatMap((step) => [step.from, step.to])), [taken])
  return (
    <svg
      role="group"
      aria-label={label}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width={layout.width}
      height={layout.height}
      data-devtools-diagram=""
    >
      <defs>
        <marker id="devtools-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" data-devtools-arrow="" />
        </marker>
        <marker id="devtools-arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" data-devtools-arrow-taken="" />
        </marker>
      </defs>
      {layout.edges.map((edge) => {
        const isTaken = marked.has(edge.index)
        return (
          <g key={edge.index} data-devtools-edge={`${edge.from}->${edge.to}`} {...(isTaken ? { 'data-devtools-taken': '' } : {})}>
            <path d={pathOf(edge.points)} fill="none" markerEnd={`url(#${isTaken ? 'devtools-arrow-taken' : 'devtools-arrow'})`} />
            {edge.label !== '' && <text x={edge.labelX} y={edge.labelY} dominantBaseline="central" textAnchor="middle">{edge.label}</text>}
          </g>
        )
      })}
      {layout.nodes.map((node) => (
        <Node key={node.name} node={node} current={node.name === current} visited={visited.has(node.name)} selected={node.name === selected} {...(onSelect === undefined ? {} : { onSelect })} />
      ))}
    </svg>
  )
}
