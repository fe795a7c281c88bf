import { Text } from 'ink'
import type { AgentSnapshot } from '../../src/contract/agent-snapshot.js'
import type { TurnTrace } from '../../src/conversation/trace.js'

/** The parts of a turn trace the status line shows. */
export interface LastTurn {
  kind: 'deterministic' | 'agentic' | 'repaired' | 'fallback'
  outcome: TurnTrace['outcome']
  routeId?: string
  replayed: boolean
}

interface Props {
  state: string
  final?: boolean
  lastTurn?: LastTurn
  /** The live agent's run state, when the fallback adapter is a coding agent. */
  agent?: AgentSnapshot
  /** What answers unmatched input when no live agent reports a state (`offline: no agent connected`). */
  backend?: string
}

/**
 * One line: the conversation state, how the last turn was decided, and the agent's run state.
 * Too long for the terminal, it is cut with `…` rather than wrapped (a wrapped status line
 * pushes the composer down and reads as two lines).
 */
export function StatusLine({ state, final = false, lastTurn, agent, backend }: Props) {
  return (
    <Text wrap="truncate-end">
      <Text dimColor>state </Text>
      <Text bold color="blue">{state}</Text>
      {final ? <Text dimColor> (final)</Text> : null}
      <Text dimColor> · last turn </Text>
      {lastTurn === undefined ? <Text dimColor>none</Text> : <TurnSummary turn={lastTurn} />}
      {agent === undefined ? null : (
        <>
          <Text dimColor> · {agent.agent} </Text>
          <Text color={agent.state === 'question' || agent.state === 'needs_input' ? 'yellow' : undefined}>
            {agent.state} ({agent.status}){agent.detail === undefined ? '' : `: ${agent.detail}`}
          </Text>
        </>
      )}
      {agent === undefined && backend !== undefined ? <Text dimColor> · agent {backend}</Text> : null}
    </Text>
  )
}

/**
 * Pure: the colour of a turn's outcome on the status line. `refused` (a guard's re-prompt) and
 * `unavailable` (a stale button) are deterministic answers, not failures: yellow, like a
 * notice. A failure (`error`, `timeout`) and a stopped turn (`aborted`) are red; `ok` is not shown.
 */
export function outcomeColor(outcome: LastTurn['outcome']): 'red' | 'yellow' | undefined {
  switch (outcome) {
    case 'ok':
      return undefined
    case 'refused':
    case 'unavailable':
      return 'yellow'
    case 'error':
    case 'aborted':
    case 'timeout':
      return 'red'
  }
}

function TurnSummary({ turn }: { turn: LastTurn }) {
  const color = turn.outcome === 'error' ? 'red' : turn.kind === 'deterministic' ? 'green' : 'magenta'
  return (
    <>
      <Text color={color}>{turn.kind}</Text>
      {turn.routeId === undefined ? null : <Text dimColor> ({turn.routeId})</Text>}
      {turn.replayed ? <Text color="yellow"> replayed</Text> : null}
      {turn.outcome === 'ok' ? null : <Text color={outcomeColor(turn.outcome)}> {turn.outcome}</Text>}
    </>
  )
}
