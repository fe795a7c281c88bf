import type { DevtoolsSignature, DevtoolsTurnKind } from '../../src/devtools/devtools-api.js'

/** The words the devtools use for a turn's kind and a record's signature (one place, so list and detail agree). */

export const TURN_KINDS: readonly DevtoolsTurnKind[] = ['deterministic', 'agentic', 'repaired', 'fallback', 'form', 'refused', 'unavailable', 'failed', 'replayed', 'pending']

export const TURN_KIND_HELP: Readonly<Record<DevtoolsTurnKind, string>> = {
  deterministic: 'a route answered, no model call',
  agentic: 'no route decided it: the agent answered',
  repaired: 'a route answered, traced as repaired; no model call',
  fallback: 'the definition\'s fallback answered (no agent, a route timed out, or the agent failed), or a route traced as fallback',
  form: 'the state\'s form took the answer as a slot',
  refused: 'a guard refused: the re-prompt answered, nothing changed',
  unavailable: 'a UI event this state does not take (a stale button)',
  failed: 'the answer ended in an error',
  replayed: 'a regenerate answered from the stored decision: no route callback, no model call',
  pending: 'no answer is stored yet: the turn is running or its answer was never stored',
}

export const SIGNATURE_LABEL: Readonly<Record<DevtoolsSignature, string>> = {
  unsigned: 'unsigned',
  signed: 'signed (not verified: the server has no record key)',
  verified: 'signed and verified',
  forged: 'signature does not verify: a session ignores this record',
}
