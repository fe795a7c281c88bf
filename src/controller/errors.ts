import { ChatrailError, markErrorClass } from '../contract/errors.js'
import type { ChatrailErrorOptions } from '../contract/errors.js'

/**
 * The controller's error family: upstream-compatible names and `AK_*` codes, built on
 * `ChatrailError` so each one has a cross-bundle `isInstance`. A catalogue, kept in one file.
 */

export const ErrorCodes = {
  AK_ADAPTER_MISSING: 'AK_ADAPTER_MISSING',
  AK_ADAPTER_STREAM_FAILED: 'AK_ADAPTER_STREAM_FAILED',
  AK_TOOL_NOT_FOUND: 'AK_TOOL_NOT_FOUND',
  AK_TOOL_EXEC_FAILED: 'AK_TOOL_EXEC_FAILED',
  AK_TOOL_INVALID_INPUT: 'AK_TOOL_INVALID_INPUT',
  AK_TOOL_FORBIDDEN: 'AK_TOOL_FORBIDDEN',
  AK_MEMORY_LOAD_FAILED: 'AK_MEMORY_LOAD_FAILED',
  AK_MEMORY_SAVE_FAILED: 'AK_MEMORY_SAVE_FAILED',
  AK_MEMORY_DESERIALIZE_FAILED: 'AK_MEMORY_DESERIALIZE_FAILED',
  AK_CONFIG_INVALID: 'AK_CONFIG_INVALID',
  AK_RUNTIME_STEP_FAILED: 'AK_RUNTIME_STEP_FAILED',
  AK_SKILL_INVALID: 'AK_SKILL_INVALID',
} as const

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes]

/** A stream, a source or an adapter failed: the turn ends in `status: 'error'`. */
export class AdapterError extends ChatrailError {
  constructor(options: ChatrailErrorOptions) {
    super(options)
    this.name = 'AdapterError'
  }

  static override isInstance = markErrorClass(AdapterError, 'AdapterError')
}

/** A tool was missing, refused, given bad arguments or threw. */
export class ToolError extends ChatrailError {
  constructor(options: ChatrailErrorOptions) {
    super(options)
    this.name = 'ToolError'
  }

  static override isInstance = markErrorClass(ToolError, 'ToolError')
}

/** Memory could not be read back (a malformed record). */
export class MemoryError extends ChatrailError {
  constructor(options: ChatrailErrorOptions) {
    super(options)
    this.name = 'MemoryError'
  }

  static override isInstance = markErrorClass(MemoryError, 'MemoryError')
}

/** The controller was configured in a way it cannot run (e.g. a proposal for an unconfirmable tool). */
export class ConfigError extends ChatrailError {
  constructor(options: ChatrailErrorOptions) {
    super(options)
    this.name = 'ConfigError'
  }

  static override isInstance = markErrorClass(ConfigError, 'ConfigError')
}

/** A step around the model call failed (the retriever rejected). */
export class RuntimeError extends ChatrailError {
  constructor(options: ChatrailErrorOptions) {
    super(options)
    this.name = 'RuntimeError'
  }

  static override isInstance = markErrorClass(RuntimeError, 'RuntimeError')
}

/** A skill's `onActivate` rejected. */
export class SkillError extends ChatrailError {
  constructor(options: ChatrailErrorOptions) {
    super(options)
    this.name = 'SkillError'
  }

  static override isInstance = markErrorClass(SkillError, 'SkillError')
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
