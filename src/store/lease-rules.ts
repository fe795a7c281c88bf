import type { AppendInput } from './conversation-store.js'

/** The lease row every store keeps per conversation (the SQL stores as `chatrail_leases`). */
export interface LeaseRow {
  turnId: string
  token: number
  expiresAt: number
  released: boolean
}

/**
 * Whether a write may proceed under the conversation's lease, the same rule in every store (the SQL
 * function `chatrail_append` spells it out again): a write with a lease needs that lease to be the
 * current, unreleased one (its expiry alone does not fence it; a takeover does); a write without a
 * lease is refused while someone else holds an unexpired one.
 */
export function leaseVerdict(lease: LeaseRow | undefined, input: Pick<AppendInput, 'lease'>, now: number): 'ok' | 'fenced' | 'busy' {
  if (input.lease) {
    if (!lease || lease.released || lease.token !== input.lease.token || lease.turnId !== input.lease.turnId) return 'fenced'
    return 'ok'
  }
  return lease && !lease.released && lease.expiresAt > now ? 'busy' : 'ok'
}
