import { HttpError } from './http-responses.js'

/**
 * The `beforeTurn` hook: the app's say before a turn runs (rate limits, quotas, a plan's allowance).
 * It is called once for each turn about to run (a submit, a regenerate, a retry of a failed answer),
 * after authentication and the owner check and before the conversation's lease is taken; a repeated
 * submit answered from the store, a stop, a dialog answer and a GET never call it, so a network
 * retry costs no quota. Return nothing to let the turn run, or a refusal.
 */
export interface TurnAttempt {
  /** The authenticated principal (undefined: `authenticate: 'none'`). */
  readonly principal: string | undefined
  readonly conversationId: string
  readonly trigger: 'submit-message' | 'regenerate-message'
  /** The request (its headers: a client's address from your proxy, an API key; its body is already read). */
  readonly request: Request
}

/**
 * Why a turn may not run. `429` (the default) is "not now": `retryAfterSeconds` is required and goes
 * out as `Retry-After`; `403` is "not at all" (a quota used up until the next billing period).
 */
export type TurnRefusal =
  | { readonly status?: 429; readonly retryAfterSeconds: number; readonly code?: string; readonly message?: string }
  | { readonly status: 403; readonly code?: string; readonly message?: string }

export type BeforeTurn = (turn: TurnAttempt) => TurnRefusal | undefined | void | Promise<TurnRefusal | undefined | void>

const CODE = /^[a-z][a-z0-9_]{0,63}$/

/** Runs the hook; a refusal becomes the HttpError the turn answers with. A hook that throws is a 500 (its error to `onError`). */
export async function checkBeforeTurn(hook: BeforeTurn | undefined, turn: TurnAttempt, onError: (error: unknown) => void): Promise<void> {
  if (hook === undefined) return
  let refusal: TurnRefusal | undefined | void
  try {
    refusal = await hook(turn)
  } catch (error) {
    onError(error)
    throw new HttpError(500, 'internal_error', 'The server failed to handle this request.')
  }
  if (refusal === undefined || refusal === null) return
  const code = typeof refusal.code === 'string' && CODE.test(refusal.code) ? refusal.code : undefined
  // the app's message goes to the client as written: it is the app's own text, not an internal error's
  const message = typeof refusal.message === 'string' && refusal.message !== '' ? refusal.message.slice(0, 500) : undefined
  if (refusal.status === 403) throw new HttpError(403, code ?? 'forbidden', message ?? 'This turn is not allowed.')
  const seconds = refusal.retryAfterSeconds
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
    onError(new TypeError('createChatHandler: a beforeTurn refusal with status 429 needs retryAfterSeconds, a positive number of seconds.'))
    throw new HttpError(500, 'internal_error', 'The server failed to handle this request.')
  }
  throw new HttpError(429, code ?? 'rate_limited', message ?? 'Too many turns; retry later.', { headers: { 'retry-after': String(Math.ceil(seconds)) } })
}
