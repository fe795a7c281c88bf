import { Box, Text, useApp, useInput } from 'ink'
import { useRef, useState } from 'react'
import type { DialogAnswerInput } from '../../src/agents/runstate/live.js'
import type { ChatDefinition, JsonObject } from '../../src/index.js'
import { useChatSession } from '../react/use-chat-session.js'
import type { UseChatSessionReturn } from '../react/use-chat-session.js'
import { chatKeyAction } from './chat-keys.js'
import type { ChatKeyAction } from './chat-keys.js'
import { Composer } from './composer.js'
import { DialogPicker } from './dialog-picker.js'
import { EventShortcuts } from './event-shortcuts.js'
import { appendSettled } from './printed-log.js'
import type { PrintedEntry } from './printed-log.js'
import { replyLabel } from './reply-label.js'
import { shortcutEvents } from './shortcut-events.js'
import { StatusLine } from './status-line.js'
import { Transcript } from './transcript.js'

/** `useChatSession`'s options (session id, injectable ids and clock, key). */
export type InkChatSessionOptions<Ctx extends JsonObject> = Parameters<typeof useChatSession<Ctx>>[1]

interface Props<Ctx extends JsonObject> {
  definition: ChatDefinition<Ctx>
  /** Passed to `useChatSession` (session id, injectable ids and clock, key). */
  options?: InkChatSessionOptions<Ctx>
  /** What answers unmatched input, shown when no live agent reports a run state. */
  backend?: string
}

/**
 * A complete terminal chat over one session: the printed log, the streaming reply, a pending
 * agent dialog's picker, the status line, the state's events, and the composer. Keys drive the
 * lifecycle (see `chat-keys.ts`); `/…` lines are sent like any text, to the app's routes.
 */
export function InkChat<Ctx extends JsonObject>({ definition, options, backend }: Props<Ctx>) {
  const chat = useChatSession(definition, options)
  const { exit } = useApp()
  const [editing, setEditing] = useState<string | undefined>(undefined)
  const [closedDialog, setClosedDialog] = useState<string | undefined>(undefined)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  // Keys can arrive faster than React re-renders: read live values from the controller and refs.
  const editingRef = useRef(editing)
  const printed = useRef<readonly PrintedEntry[]>([])
  printed.current = appendSettled(printed.current, chat.messages, replyLabel(chat.traces))

  const pending = chat.pendingDialog
  const pickerOpen = pending !== undefined && pending.toolId !== closedDialog
  const streaming = chat.status === 'streaming'
  const live = chat.messages.find((message) => message.status === 'streaming')
  const shortcuts = shortcutEvents(definition, chat.snapshot.state, chat.snapshot.events)

  const attempt = (work: Promise<unknown>): void => {
    setFailure(undefined)
    work.catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)))
  }
  const setEditingNow = (id: string | undefined): void => {
    editingRef.current = id
    setEditing(id)
  }

  const apply = (action: ChatKeyAction, chatNow: UseChatSessionReturn<Ctx>, shortcutsNow: readonly string[]): void => {
    const { input, messages } = chatNow.controller.getState()
    switch (action.type) {
      case 'insert':
        return chatNow.setInput(input + action.text)
      case 'delete':
        return chatNow.setInput(input.slice(0, -1))
      case 'clear-input':
        return chatNow.setInput('')
      case 'send': {
        const id = editingRef.current
        if (id === undefined) return attempt(chatNow.send(input))
        setEditingNow(undefined)
        chatNow.setInput('')
        return attempt(chatNow.edit(id, input, { regenerate: true }))
      }
      case 'stop':
        return chatNow.stop()
      case 'edit-last': {
        const last = messages.findLast((message) => message.role === 'user')
        if (last === undefined) return
        setEditingNow(last.id)
        return chatNow.setInput(last.content)
      }
      case 'cancel-edit':
        setEditingNow(undefined)
        return chatNow.setInput('')
      case 'retry':
        return attempt(chatNow.retry())
      case 'regenerate':
        return attempt(chatNow.regenerate())
      case 'event': {
        const event = shortcutsNow[action.index]
        if (event !== undefined) attempt(chatNow.sendEvent(event))
        return
      }
      case 'open-dialog':
        return setClosedDialog(undefined)
      case 'quit':
        chatNow.stop()
        return exit()
    }
  }

  // Ink re-subscribes a changed handler in a passive effect, which can run after the next key:
  // the handler reads this render's values through a ref, never through its closure.
  const current = useRef({ chat, pending, pickerOpen, shortcuts, apply })
  current.current = { chat, pending, pickerOpen, shortcuts, apply }
  // Always active (the picker's keys are ignored here, not unsubscribed): toggling the last
  // active useInput would drop raw mode for a moment, and a key typed then would be lost.
  useInput((input, key) => {
    const now = current.current
    if (now.pickerOpen) return
    const state = now.chat.controller.getState()
    const action = chatKeyAction(input, key, {
      streaming: state.status === 'streaming',
      editing: editingRef.current !== undefined,
      input: state.input,
      dialogClosed: now.pending !== undefined,
    })
    if (action !== undefined) now.apply(action, now.chat, now.shortcuts)
  })

  const answer = (toolId: string, value: DialogAnswerInput): void => {
    setClosedDialog(toolId)
    attempt(chat.answerDialog(toolId, value))
  }
  const dismiss = (toolId: string): void => {
    if (chat.controller.getState().status === 'streaming') chat.stop()
    setClosedDialog(toolId)
  }

  const lastTrace = chat.traces.at(-1)
  const error = failure ?? chat.error?.message
  return (
    <Box flexDirection="column">
      <Transcript printed={printed.current} {...(live === undefined ? {} : { live })} />
      {error === undefined ? null : <Text color="red">error: {error}</Text>}
      {pickerOpen ? (
        <DialogPicker key={pending.toolId} dialog={pending} onAnswer={(value) => answer(pending.toolId, value)} onDismiss={() => dismiss(pending.toolId)} />
      ) : null}
      <StatusLine
        state={chat.snapshot.state}
        final={chat.snapshot.final}
        {...(lastTrace === undefined ? {} : { lastTurn: lastTrace })}
        {...(chat.snapshot.agent === undefined ? {} : { agent: chat.snapshot.agent })}
        {...(backend === undefined ? {} : { backend })}
      />
      <EventShortcuts events={shortcuts} />
      {pickerOpen ? (
        <Text dimColor>The agent is waiting for your answer above · Esc closes the picker{streaming ? ' and stops the turn' : ''}</Text>
      ) : (
        <Composer input={chat.input} streaming={streaming} editing={editing !== undefined} dialogClosed={pending !== undefined} />
      )}
    </Box>
  )
}
