/**
 * The base of every named chatrail error. chatrail ships ESM and CJS, so one process can hold
 * two copies of a class; `isInstance` checks a `Symbol.for` marker instead of the prototype chain.
 */

const baseMarker = Symbol.for('chatrail.error')

export interface ChatrailErrorOptions {
  code: string
  message: string
  hint?: string
  cause?: unknown
}

export class ChatrailError extends Error {
  readonly code: string
  readonly hint: string | undefined
  private readonly [baseMarker] = true

  constructor(options: ChatrailErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ChatrailError'
    this.code = options.code
    this.hint = options.hint
  }

  static isInstance(value: unknown): value is ChatrailError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[baseMarker] === true
  }

  /** `error[CODE]: message`, then the hint on its own line when there is one. */
  override toString(): string {
    return this.hint ? `error[${this.code}]: ${this.message}\n  hint: ${this.hint}` : `error[${this.code}]: ${this.message}`
  }
}

/**
 * Marks a subclass with its own `Symbol.for('chatrail.error.<Name>')` and returns an `isInstance`
 * guard for it that works across bundles.
 */
export function markErrorClass<T extends ChatrailError>(
  ctor: abstract new (...args: never[]) => T,
  name: string,
): (value: unknown) => value is T {
  const marker = Symbol.for(`chatrail.error.${name}`)
  Object.defineProperty(ctor.prototype, marker, { value: true })
  return (value: unknown): value is T =>
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true
}
