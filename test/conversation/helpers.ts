import type { AdapterFactory, AdapterRequest } from '../../src/contract/adapter.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'
import { commandRoute, defineChat, type ChatDefinition } from '../../src/index.js'
import { scriptedAdapter, type ScriptedAdapter } from '../../src/testing/index.js'

/** Shared fixtures for the conversation tests: messages, draining, a small definition. */

let counter = 0
export function user(content: string, id = `u${++counter}`, metadata?: Record<string, unknown>): Message {
  return { id, role: 'user', content, status: 'complete', createdAt: new Date(0), ...(metadata ? { metadata } : {}) }
}

export function assistant(content: string, id = `a${++counter}`, metadata?: Record<string, unknown>): Message {
  return { id, role: 'assistant', content, status: 'complete', createdAt: new Date(0), ...(metadata ? { metadata } : {}) }
}

export async function drain(source: StreamSource): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of source.stream()) chunks.push(chunk)
  return chunks
}

export async function turn(adapter: AdapterFactory, messages: Message[]): Promise<StreamChunk[]> {
  return drain(adapter.createSource({ messages }))
}

export const textOf = (chunks: StreamChunk[]): string => chunks.filter((c) => c.type === 'text').map((c) => c.content).join('')
export const withoutRecords = (chunks: StreamChunk[]): StreamChunk[] => chunks.map((c) => (c.type === 'done' ? { type: 'done' } : c))

/** idle --start--> collecting --name--> complete (final); `/start` and `/name <x>` routes. */
export function flowDefinition(adapter: AdapterFactory = scriptedAdapter(['agent says hi'])): ChatDefinition {
  return defineChat({
    id: 'flow',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      states: {
        idle: { on: { start: 'collecting' }, actions: ['begin'] },
        collecting: { on: { name: 'complete', cancel: 'idle' }, actions: ['type-name', 'cancel'] },
        complete: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'What is your name?' }),
        commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', states: ['collecting'], response: 'Cancelled.' }),
      ],
    },
  })
}

export function scripted(...steps: Parameters<typeof scriptedAdapter>[0]): ScriptedAdapter {
  return scriptedAdapter(steps)
}

export type { AdapterRequest }
