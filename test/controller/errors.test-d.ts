import { describe, expectTypeOf, it } from 'vitest'
import { AdapterError, ConfigError, ErrorCodes, MemoryError, RuntimeError, SkillError, ToolError } from '../../src/controller/index.js'
import type { ErrorCode } from '../../src/controller/index.js'
import type { ChatrailError, ChatrailErrorOptions } from '../../src/contract/index.js'

// errors.ts builds its classes and ErrorCodes from one factory and one list; these pin the public
// types to what the hand-written catalogue declared.
describe('controller error types', () => {
  it('ErrorCodes maps every code to its own literal, and ErrorCode is their union', () => {
    expectTypeOf(ErrorCodes.AK_TOOL_NOT_FOUND).toEqualTypeOf<'AK_TOOL_NOT_FOUND'>()
    expectTypeOf(ErrorCodes).toEqualTypeOf<{
      readonly AK_ADAPTER_MISSING: 'AK_ADAPTER_MISSING'
      readonly AK_ADAPTER_STREAM_FAILED: 'AK_ADAPTER_STREAM_FAILED'
      readonly AK_TOOL_NOT_FOUND: 'AK_TOOL_NOT_FOUND'
      readonly AK_TOOL_EXEC_FAILED: 'AK_TOOL_EXEC_FAILED'
      readonly AK_TOOL_INVALID_INPUT: 'AK_TOOL_INVALID_INPUT'
      readonly AK_TOOL_FORBIDDEN: 'AK_TOOL_FORBIDDEN'
      readonly AK_MEMORY_LOAD_FAILED: 'AK_MEMORY_LOAD_FAILED'
      readonly AK_MEMORY_SAVE_FAILED: 'AK_MEMORY_SAVE_FAILED'
      readonly AK_MEMORY_DESERIALIZE_FAILED: 'AK_MEMORY_DESERIALIZE_FAILED'
      readonly AK_CONFIG_INVALID: 'AK_CONFIG_INVALID'
      readonly AK_RUNTIME_STEP_FAILED: 'AK_RUNTIME_STEP_FAILED'
      readonly AK_SKILL_INVALID: 'AK_SKILL_INVALID'
    }>()
    expectTypeOf<ErrorCode>().toEqualTypeOf<(typeof ErrorCodes)[keyof typeof ErrorCodes]>()
  })

  it('each named error is a ChatrailError class taking ChatrailErrorOptions, with its own isInstance guard', () => {
    expectTypeOf(AdapterError).constructorParameters.toEqualTypeOf<[ChatrailErrorOptions]>()
    expectTypeOf(new ToolError({ code: 'X', message: 'm' })).toExtend<ChatrailError>()
    expectTypeOf(AdapterError.isInstance).toEqualTypeOf<(value: unknown) => value is AdapterError>()
    expectTypeOf(ToolError.isInstance).toEqualTypeOf<(value: unknown) => value is ToolError>()
    expectTypeOf(MemoryError.isInstance).toEqualTypeOf<(value: unknown) => value is MemoryError>()
    expectTypeOf(ConfigError.isInstance).toEqualTypeOf<(value: unknown) => value is ConfigError>()
    expectTypeOf(RuntimeError.isInstance).toEqualTypeOf<(value: unknown) => value is RuntimeError>()
    expectTypeOf(SkillError.isInstance).toEqualTypeOf<(value: unknown) => value is SkillError>()
  })
})
