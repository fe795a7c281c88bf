import { describe, expectTypeOf, it } from 'vitest'
import { validateMemoryRecord } from '../../src/controller/index.js'
import type { MemoryRecord } from '../../src/contract/index.js'

describe('validateMemoryRecord types', () => {
  it('takes anything (parsed JSON from storage) and returns a MemoryRecord', () => {
    expectTypeOf(validateMemoryRecord).toEqualTypeOf<(input: unknown) => MemoryRecord>()
  })
})
