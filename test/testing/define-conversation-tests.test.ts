import { describe } from 'vitest'
import { defineConversationTests } from '../../src/testing/vitest.js'

// The kit's own conversation files, one vitest test per conversation (3 tests in 2 describes).
describe('conversation files', () => {
  defineConversationTests('test/testing/fixtures/conversations/*.conv.yaml', { replayCheck: true })
})
