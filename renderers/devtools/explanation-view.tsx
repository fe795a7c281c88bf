import type { ReactNode } from 'react'
import type { DevtoolsExplanation } from '../../src/devtools/devtools-api.js'

/**
 * An explanation (`session.explain`'s, computed by the API): who answers and how, then every route
 * in declaration order with whether it takes the input and, if not, why. Used for "why not the
 * other routes" on a turn and for what-if.
 */

const REASON_LABEL: Readonly<Record<DevtoolsExplanation['routes'][number]['reason'], string>> = {
  matched: 'matches',
  state: 'not in this state',
  event: 'event not declared here',
  guard: 'guard refused',
  'no-match': 'does not match',
}

export function ExplanationView({ explanation, caption }: { explanation: DevtoolsExplanation; caption: string }): ReactNode {
  const { outcome } = explanation
  return (
    <div data-devtools-explanation="" data-devtools-outcome={outcome.kind}>
      <p data-devtools-explanation-outcome="">
        <strong>{outcome.routeId === undefined ? outcome.kind : `${outcome.kind}: ${outcome.routeId}`}</strong>
        {' '}→ <code>{outcome.toState}</code>. {outcome.detail}
      </p>
      <div data-devtools-scroll="" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr><th scope="col">Route</th><th scope="col">Result</th><th scope="col">Why</th></tr>
          </thead>
          <tbody>
            {explanation.routes.map((route) => (
              <tr key={route.routeId} data-devtools-route={route.routeId} {...(route.matched ? { 'data-devtools-matched': '' } : {})}>
                <th scope="row"><code>{route.routeId}</code></th>
                <td>{REASON_LABEL[route.reason]}{route.shadowedBy === undefined ? '' : ` (taken first by ${route.shadowedBy})`}</td>
                <td>{route.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
