import { ChatrailError, markErrorClass } from '../contract/errors.js'
import type { ChatrailErrorOptions } from '../contract/errors.js'

/**
 * The controller's error family: upstream-compatible names and `AK_*` codes, built on
 * `ChatrailError` so each one has a cross-bundle `isInstance`. A catalogue, kept in one file.
 */

const codes = [
  'AK_ADAPTER_MISSING',
  'AK_ADAPTER_STREAM_FAILED',
  'AK_TOOL_NOT_FOUND',
  'AK_TOOL_EXEC_FAILED',
  'AK_TOOL_INVALID_INPUT',
  'AK_TOOL_FORBIDDEN',
  'AK_MEMORY_LOAD_FAILED',
  'AK_MEMORY_SAVE_FAILED',
  'AK_MEMORY_DESERIALIZE_FAILED',
  'AK_CONFIG_INVALID',
  'AK_RUNTIME_STEP_FAILED',
  'AK_SKILL_INVALID',
] as const

/** Every code keyed by itself (`ErrorCodes.AK_TOOL_NOT_FOUND === 'AK_TOOL_NOT_FOUND'`), built from the list above. */
export const ErrorCodes = Object.fromEntries(codes.map((code) => [code, code])) as { readonly [Code in (typeof codes)[number]]: Code }

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes]

/**
 * The shared body of the named errors below: a `ChatrailError` subclass that sets `name` and
 * carries the `Symbol.for('chatrail.error.<name>')` marker its inherited `isInstance` checks.
 * Each public class extends it and only re-declares `isInstance` with its own guard type.
 */
function namedError(name: string): typeof ChatrailError {
  return class Named extends ChatrailError {
    constructor(options: ChatrailErrorOptions) {
      super(options)
      this.name = name
    }

    static override isInstance = markErrorClass(Named, name)
  }
}

/** A stream, a source or an adapter failed: the turn ends in `status: 'error'`. */
export class AdapterError extends namedError('AdapterError') {
  declare static isInstance: (value: unknown) => value is AdapterError
}

/** A tool was missing, refused, given bad arguments or threw. */
export class ToolError extends namedError('ToolError') {
  declare static isInstance: (value: unknown) => value is ToolError
}

/** Memory could not be read back (a malformed record). */
export class MemoryError extends namedError('MemoryError') {
  declare static isInstance: (value: unknown) => value is MemoryError
}

/** The controller was configured in a way it cannot run (e.g. a proposal for an unconfirmable tool). */
export class ConfigError extends namedError('ConfigError') {
  declare static isInstance: (value: unknown) => value is ConfigError
}

/** A step around the model call failed (the retriever rejected). */
export class RuntimeError extends namedError('RuntimeError') {
  declare static isInstance: (value: unknown) => value is RuntimeError
}

/** A skill's `onActivate` rejected. */
export class SkillError extends namedError('SkillError') {
  declare static isInstance: (value: unknown) => value is SkillError
}

/** The message of anything thrown, for wrapping it in a named error. */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return value.message
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
