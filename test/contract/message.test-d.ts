import { describe, expectTypeOf, it } from 'vitest'
import type {
  AudioPart,
  ComponentPart,
  ContentPart,
  DataRegion,
  FilePart,
  ImagePart,
  MaybePromise,
  MemoryRecord,
  Message,
  MessageRole,
  MessageStatus,
  PartKind,
  TextPart,
  ToolCall,
  ToolCallStatus,
  VideoPart,
} from '../../src/index.js'

describe('message shapes (agentskit-contract §1.1–1.3)', () => {
  it('pins the literal unions', () => {
    expectTypeOf<MessageRole>().toEqualTypeOf<'user' | 'assistant' | 'system' | 'tool'>()
    expectTypeOf<MessageStatus>().toEqualTypeOf<'pending' | 'streaming' | 'complete' | 'error'>()
    expectTypeOf<ToolCallStatus>().toEqualTypeOf<'pending' | 'running' | 'complete' | 'error' | 'requires_confirmation'>()
    expectTypeOf<DataRegion>().toEqualTypeOf<'eu' | 'us' | 'apac'>()
    // upstream's five kinds plus chatrail's `component` (issue 30)
    expectTypeOf<PartKind>().toEqualTypeOf<'text' | 'image' | 'audio' | 'video' | 'file' | 'component'>()
    expectTypeOf<MaybePromise<number>>().toEqualTypeOf<number | Promise<number>>()
  })

  it('pins Message field by field (names, optionality)', () => {
    expectTypeOf<Message>().toEqualTypeOf<{
      id: string
      role: MessageRole
      content: string
      parts?: ContentPart[]
      status: MessageStatus
      toolCalls?: ToolCall[]
      toolCallId?: string
      metadata?: Record<string, unknown>
      createdAt: Date
    }>()
  })

  it('pins ToolCall and MemoryRecord', () => {
    expectTypeOf<ToolCall>().toEqualTypeOf<{
      id: string
      name: string
      args: Record<string, unknown>
      result?: string
      error?: string
      status: ToolCallStatus
    }>()
    expectTypeOf<MemoryRecord>().toEqualTypeOf<{
      version: 1
      messages: Array<Omit<Message, 'createdAt'> & { createdAt: string }>
    }>()
    expectTypeOf<MemoryRecord['messages'][number]['createdAt']>().toEqualTypeOf<string>()
  })

  it('pins the five content parts', () => {
    expectTypeOf<TextPart>().toEqualTypeOf<{ type: 'text'; text: string }>()
    expectTypeOf<ImagePart>().toEqualTypeOf<{ type: 'image'; source: string; mimeType?: string; detail?: 'low' | 'high' | 'auto' }>()
    expectTypeOf<AudioPart>().toEqualTypeOf<{ type: 'audio'; source: string; mimeType?: string; durationSec?: number }>()
    expectTypeOf<VideoPart>().toEqualTypeOf<{ type: 'video'; source: string; mimeType?: string; durationSec?: number }>()
    expectTypeOf<FilePart>().toEqualTypeOf<{ type: 'file'; source: string; mimeType?: string; filename?: string }>()
    expectTypeOf<ComponentPart>().toEqualTypeOf<{
      type: 'component'
      componentKey: string
      instanceId: string
      props: unknown
      fallback: { kind: string; summary: string }
      provenance: 'route' | 'agent' | 'host'
    }>()
    expectTypeOf<ContentPart>().toEqualTypeOf<TextPart | ImagePart | AudioPart | VideoPart | FilePart | ComponentPart>()
  })
})
