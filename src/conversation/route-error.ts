import { ChatrailError, markErrorClass } from '../contract/errors.js'

/**
 * A route that could not answer: its `match`, `guard` or `response` threw or rejected, its output
 * was not usable, or the machine refused its transition. Travels as `metadata.error` on the turn's
 * single `error` chunk; the cause is kept for the developer, never put in traces.
 */
export class ChatrailRouteError extends ChatrailError {
  readonly routeId: string

  constructor(options: { routeId: string; message: string; cause?: unknown; hint?: string }) {
    super({
      code: 'ROUTE_FAILED',
      message: options.message,
      hint: options.hint ?? 'See `cause`; the turn changed no state and called no model.',
      cause: options.cause,
    })
    this.name = 'ChatrailRouteError'
    this.routeId = options.routeId
  }

  static override isInstance(value: unknown): value is ChatrailRouteError {
    return isChatrailRouteError(value)
  }
}

export const isChatrailRouteError = markErrorClass(ChatrailRouteError, 'ChatrailRouteError')
