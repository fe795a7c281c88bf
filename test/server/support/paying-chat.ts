import { createAnthropic } from '@ai-sdk/anthropic'
import { aiSdkAdapter } from '../../../src/ai-sdk/index.js'
import type { ToolDefinition } from '../../../src/contract/tool.js'
import { defineChat } from '../../../src/index.js'
import type { ChatDefinition } from '../../../src/index.js'
import { startAnthropicServer } from '../../support/anthropic-server.js'
import type { AnthropicServer, ScriptedBlock } from '../../support/anthropic-server.js'

/**
 * The chat the tool-approval suites share (tool-approval-records, approval-continuation on memory and
 * on Postgres, the remote binding's): a real @ai-sdk/anthropic model against the scripted Anthropic
 * server, whose first answer is "Paying." and a call to `pay` (a tool that requires confirmation),
 * and whose second, once the call is decided, is " Done.".
 */

/** One execution of `pay`: the key and call id it ran under, as the suites assert them. */
export interface PayRun {
  readonly key: string | undefined
  readonly callId: string
}

export interface PayingModelOptions {
  /** The amount of the one call (default 5). */
  readonly amount?: number
  /** The first answer's blocks instead of "Paying." and one call (e.g. two calls at once). */
  readonly firstAnswer?: readonly ScriptedBlock[]
  /** The second answer's text (default " Done."). */
  readonly continuation?: string
  /** How long the second answer waits before it streams (a follower attaches meanwhile). */
  readonly continuationDelayMs?: number
}

/** The scripted model; close it with `close()` (the suites push it to their closers). */
export function startPayingModel(options: PayingModelOptions = {}): Promise<AnthropicServer> {
  return startAnthropicServer({
    turns: [
      { content: [...(options.firstAnswer ?? [{ type: 'text', text: 'Paying.' }, { type: 'tool_use', id: 'toolu_pay', name: 'pay', input: { amount: options.amount ?? 5 } }])] },
      { content: [{ type: 'text', text: options.continuation ?? ' Done.' }], ...(options.continuationDelayMs === undefined ? {} : { delayMs: options.continuationDelayMs }) },
    ],
  })
}

/** The definition over `model`: `pay` records each execution in `runs` and answers `{ paid: amount }`. */
export function payingDefinition(model: AnthropicServer, runs: PayRun[]): ChatDefinition {
  const pay: ToolDefinition = {
    name: 'pay',
    requiresConfirmation: true,
    schema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    execute: (args, context) => {
      runs.push({ key: context.idempotencyKey, callId: context.call.id })
      return { paid: args.amount }
    },
  }
  return defineChat({
    id: 'payments',
    chat: { adapter: aiSdkAdapter({ model: createAnthropic({ baseURL: `${model.url}/v1`, apiKey: 'scripted-key' })('claude-sonnet-4-5'), maxRetries: 0 }), tools: [pay] },
    conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] },
  })
}
