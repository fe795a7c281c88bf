import type { AdapterRequest } from '../../../src/contract/adapter.js'
import type { StreamChunk, StreamSource } from '../../../src/contract/stream.js'
import { ChatrailError } from '../../../src/contract/errors.js'
import { sourceChunk } from '../../../src/contract/message-source.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../../../src/contract/dialog.js'
import type { AgentSnapshot } from '../../../src/contract/agent-snapshot.js'
import type { LiveAgentAdapter } from '../../../src/contract/live-agent-adapter.js'

/**
 * A scripted stand-in for a live coding agent (the shape Claude Code's adapter has): it streams
 * canned replies, counts every request, and exposes `agentRunState`. A message mentioning "plan"
 * or "ask" opens a dialog (ExitPlanMode / AskUserQuestion) that holds the turn open until it is
 * answered from the chat, exactly as the real agent waits on its picker. Other keywords show the
 * renderer's states: "markdown" (a formatted answer), "long" (a slow reply to stop), "think"
 * (a pause before the first word), "fail" (a reply that breaks off with an error), "refund"
 * (reasoning, then two tool calls: a lookup that runs and a refund that waits for approval; the
 * answer after the tools cites its sources).
 */

export interface ScriptedAgent extends LiveAgentAdapter {
  /** How many times the chat asked the agent (createSource calls). */
  calls: () => number
  /** Live subscribers of `agentRunState` (a session holds one while it lives). */
  subscribers: () => number
}

const QUESTION: Omit<Dialog, 'toolId'> = {
  kind: 'question',
  prompt: 'Which plan are you on?',
  options: [
    { label: 'Free', description: 'Community support only' },
    { label: 'Pro', description: 'Email support, 1 business day' },
    { label: 'Team', description: 'Priority support and a shared inbox' },
    { label: 'Other', isOther: true },
  ],
  multiSelect: false,
  answerable: true,
}

const PLAN = [
  '# Reship the lost parcel',
  '',
  'The carrier lost the parcel after the hub scan; nothing was delivered, so a reship is safe.',
  '',
  '## Steps',
  '',
  '1. Open a claim with the carrier for the **lost** parcel, quoting the `hub-scan` event.',
  '2. Check the warehouse stock for every item of the order.',
  '3. Create the replacement shipment with express delivery.',
  '4. Email the customer the new tracking number.',
  '5. Refund the shipping fee once the claim is accepted.',
  '',
  '## Commands',
  '',
  '```',
  'orders reship 12345 --express',
  'claims open 12345 --reason lost',
  '```',
  '',
  '> Nothing is charged twice; the claim covers the replacement.',
].join('\n')

const MARKDOWN = [
  '## Reship options',
  '',
  'Your parcel **#12345** can be reshipped in two ways:',
  '',
  '| Option | Arrives | Cost |',
  '| --- | --- | --- |',
  '| Standard | 3–5 days | free |',
  '| Express | next day | free (our fault) |',
  '',
  '1. Pick an option.',
  '2. Watch for the *new* tracking email.',
  '',
  'Track it from a terminal:',
  '',
  '```sh',
  'orders track 12345 --watch',
  '```',
  '',
  'Details: [shipping policy](https://example.com/shipping) · [not a link](javascript:alert(1)) · <b>raw html stays text</b>',
].join('\n')

const LONG = Array.from({ length: 12 }, (_, i) => `Step ${i + 1}: I am checking the carrier records, the warehouse stock and the claim history once more.`).join(' ')

/** The reply text for a request, and how it streams; undefined for the dialog keywords. */
function scriptOf(text: string): { words: string[]; delay?: number; pause?: number; fail?: boolean } | undefined {
  if (/\bmarkdown\b/i.test(text)) return { words: MARKDOWN.split(/(?<=\n)|(?<= )/) }
  if (/\blong\b/i.test(text)) return { words: LONG.split(/(?<= )/), delay: 60 }
  if (/\bthink\b/i.test(text)) return { words: ['Thought ', 'about ', 'it.'], pause: 1500 }
  if (/\bfail\b/i.test(text)) return { words: 'Let me check the carrier… '.split(/(?<= )/), fail: true }
  return undefined
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The refund turn: it thinks aloud, then calls the example's tools (support-tools.ts). */
const REFUND_REASONING = ['The customer wants a refund for order #12345. ', 'First look the order up, ', 'then refund the shipping fee, ', 'which needs their approval.']
const REFUND_SOURCES = [
  sourceChunk({ url: 'https://example.com/refunds', title: 'Refund policy' }),
  sourceChunk({ url: 'https://example.com/shipping' }),
]

/** Whether the request answers tool results (the tool loop's follow-up): a tool message after the last user message. */
function afterTools(request: AdapterRequest): boolean {
  const messages = [...request.messages]
  const lastUser = messages.map((message) => message.role).lastIndexOf('user')
  return messages.slice(lastUser + 1).some((message) => message.role === 'tool')
}

function lastUserText(request: AdapterRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? ''
}

export interface ScriptedAgentOptions {
  /** Pause between streamed chunks; default 20 ms. */
  chunkDelayMs?: number
  /** Called with the new count on every request. */
  onCall?: (calls: number) => void
}

export function createScriptedAgent(options: ScriptedAgentOptions = {}): ScriptedAgent {
  const delay = options.chunkDelayMs ?? 20
  let calls = 0
  let dialogs = 0
  let snapshot: AgentSnapshot = { agent: 'claude-code', state: 'idle', status: 'idle' }
  let answer: ((input: DialogAnswerInput) => void) | undefined
  const listeners = new Set<() => void>()
  const publish = (next: AgentSnapshot): void => {
    snapshot = next
    for (const listener of [...listeners]) listener()
  }

  const describe = (input: DialogAnswerInput): string => {
    if (input.kind === 'plan') return input.approved ? 'the plan is approved' : `the plan is rejected${input.feedback ? `: ${input.feedback}` : ''}`
    return input.answers.map((a) => [...a.chosen, ...(a.otherText ? [a.otherText] : [])].join(', ')).join('; ')
  }

  function createSource(request: AdapterRequest): StreamSource {
    calls += 1
    options.onCall?.(calls)
    const text = lastUserText(request)
    let aborted = false
    let wake: (() => void) | undefined
    async function* stream(): AsyncIterableIterator<StreamChunk> {
      publish({ agent: 'claude-code', state: 'working', status: 'running' })
      if (/\brefund\b/i.test(text)) {
        const follow = afterTools(request)
        const chunks: StreamChunk[] = follow
          ? [{ type: 'text', content: 'Done: the shipping fee is refunded, as our policy says.' }, ...REFUND_SOURCES]
          : [
            ...REFUND_REASONING.map((content): StreamChunk => ({ type: 'reasoning', content })),
            { type: 'text', content: 'Let me look the order up and refund the shipping fee.' },
            { type: 'tool_call', toolCall: { id: `call_lookup_${calls}`, name: 'lookup_order', args: JSON.stringify({ orderId: '12345' }) } },
            { type: 'tool_call', toolCall: { id: `call_refund_${calls}`, name: 'refund_order', args: JSON.stringify({ orderId: '12345', amount: 4.9, reason: 'late delivery' }) } },
          ]
        for (const chunk of chunks) {
          await wait(chunk.type === 'reasoning' ? 400 : delay)
          if (aborted) return
          yield chunk
        }
        publish({ agent: 'claude-code', state: 'idle', status: 'completed' })
        yield { type: 'done' }
        return
      }
      const kind = /\bplan\b/i.test(text) ? 'plan' : /\bask\b/i.test(text) ? 'question' : undefined
      const script = kind === undefined ? scriptOf(text) : undefined
      if (script !== undefined) {
        if (script.pause !== undefined) await wait(script.pause)
        for (const word of script.words) {
          await wait(script.delay ?? delay)
          if (aborted) return
          yield { type: 'text', content: word }
        }
        if (script.fail === true) {
          publish({ agent: 'claude-code', state: 'idle', status: 'failed' })
          throw new Error('The agent lost its connection (scripted failure)')
        }
        publish({ agent: 'claude-code', state: 'idle', status: 'completed' })
        yield { type: 'done' }
        return
      }
      if (kind === undefined) {
        for (const word of `(agent) I looked into “${text}”. Here is what I found: your request is logged and a specialist will follow up.`.split(/(?<= )/)) {
          await wait(delay)
          if (aborted) return
          yield { type: 'text', content: word }
        }
        publish({ agent: 'claude-code', state: 'idle', status: 'completed' })
        yield { type: 'done' }
        return
      }
      yield { type: 'text', content: kind === 'plan' ? 'I drafted a plan for this.' : 'One question before I continue.' }
      dialogs += 1
      const dialog: Dialog = kind === 'plan'
        ? { toolId: `toolu_plan_${dialogs}`, kind: 'plan', prompt: PLAN, options: [], multiSelect: false, answerable: true }
        : { ...QUESTION, toolId: `toolu_ask_${dialogs}` }
      const name = kind === 'plan' ? 'ExitPlanMode' : 'AskUserQuestion'
      // The agent ran the tool itself, so the call carries a result and needs no execution here.
      yield { type: 'tool_call', toolCall: { id: dialog.toolId, name, args: JSON.stringify({ prompt: dialog.prompt }), result: '' } }
      const answered = new Promise<DialogAnswerInput | undefined>((resolve) => {
        answer = resolve
        wake = () => resolve(undefined)
      })
      publish({ agent: 'claude-code', state: 'question', status: 'waiting_for_input', pendingDialog: dialog })
      const input = await answered
      answer = undefined
      publish({ agent: 'claude-code', state: aborted ? 'idle' : 'working', status: aborted ? 'stopped' : 'running' })
      if (aborted || input === undefined) return
      await wait(delay)
      yield { type: 'text', content: ` Thanks — ${describe(input)}.` }
      publish({ agent: 'claude-code', state: 'idle', status: 'completed' })
      yield { type: 'done' }
    }
    return {
      stream,
      abort: () => {
        aborted = true
        wake?.()
        // Stopped: the agent is no longer working (the badge must not keep saying so).
        if (snapshot.state === 'working') publish({ agent: 'claude-code', state: 'idle', status: 'stopped' })
      },
    }
  }

  return {
    createSource,
    calls: () => calls,
    subscribers: () => listeners.size,
    agentRunState: {
      getSnapshot: () => snapshot,
      subscribe: (listener) => {
        listeners.add(listener)
        return () => { listeners.delete(listener) }
      },
      answerDialog: async (toolId: string, input: DialogAnswerInput): Promise<DialogAnswerResult> => {
        const pending = snapshot.pendingDialog
        if (pending === undefined || answer === undefined) {
          throw new ChatrailError({ code: 'NO_PENDING_DIALOG', message: 'The agent has no pending dialog', hint: 'Answer only while a dialog card is pending.' })
        }
        if (pending.toolId !== toolId) {
          throw new ChatrailError({ code: 'DIALOG_CHANGED', message: `Dialog ${toolId} is no longer pending (now ${pending.toolId})`, hint: 'Answer the card that is shown now.' })
        }
        answer(input)
        return { delivered: 'live' }
      },
    },
  }
}
