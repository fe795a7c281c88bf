import { Box, Text, useApp } from 'ink'
import { useRef, useState } from 'react'
import type { DialogAnswerInput } from '../../src/contract/dialog.js'
import type { ChatDefinition, JsonObject } from '../../src/index.js'
import type { Message } from '../../src/contract/message.js'
import { agentFailedIn } from '../../src/view/agent-failure.js'
import { useChatSession } from '../react/use-chat-session.js'
import type { UseChatSessionReturn } from '../react/use-chat-session.js'
import { chatKeyAction } from './chat-keys.js'
import type { ChatKeyAction } from './chat-keys.js'
import { Composer } from './composer.js'
import { BoundApprovalPrompt, pendingApprovalOf } from './bound-approval-prompt.js'
import { ComponentPicker } from './component-picker.js'
import type { ApprovalSource } from '../../src/view/approval-source.js'
import { DialogPicker } from './dialog-picker.js'
import type { KeyHandler } from './dialog-picker.js'
import { EventShortcuts } from './event-shortcuts.js'
import { failureLine, fallbackFailureLine } from './failure-line.js'
import { editLine, linesOf } from './line-editor.js'
import type { LineState } from './line-editor.js'
import { appendSettled, reprintBranch } from './printed-log.js'
import type { PrintedEntry } from './printed-log.js'
import {
  atDraft, emptyHistory, historyNewer, historyOlder, recordPrompt, refineSearch, searchOlder, searchResult, startSearch,
} from './prompt-history.js'
import type { HistoryBrowse, HistorySearch, PromptHistory } from './prompt-history.js'
import { replyLabel, replyTrace } from './reply-label.js'
import { shortcutsOfBar } from './shortcut-events.js'
import { eventBarOf } from '../../src/view/event-bar.js'
import type { EventShortcut } from './shortcut-events.js'
import { StatusLine } from './status-line.js'
import { Transcript } from './transcript.js'
import { useBracketedPaste, useKeys } from './use-keys.js'
import { useReprintOnResize } from './use-reprint-on-resize.js'

/** `useChatSession`'s options (session id, injectable ids and clock, key). */
export type InkChatSessionOptions<Ctx extends JsonObject> = Parameters<typeof useChatSession<Ctx>>[1]

interface Props<Ctx extends JsonObject> {
  definition: ChatDefinition<Ctx>
  /** Passed to `useChatSession` (session id, injectable ids and clock, key). */
  options?: InkChatSessionOptions<Ctx>
  /** What answers unmatched input, shown when no live agent reports a run state. */
  backend?: string
  /** Labels of the event keys, by UI event or machine event (default: the UI event humanized). */
  eventLabels?: Readonly<Record<string, string>>
  /** Text printed above the conversation (a banner); kept when the log is printed again after a resize. */
  header?: string
  /**
   * Where approval requests are decided (chatrail/react/actions' `coordinatorApprovals` or
   * `serverApprovals`): the last answer's `approval-request` is then a prompt bound to its record.
   * Without it, an approval request shows its summary.
   */
  approvals?: ApprovalSource
}

/**
 * A complete terminal chat over one session: the printed log, the streaming reply, a pending
 * agent dialog's picker, the status line, the state's events, and the composer. Keys drive the
 * lifecycle (see `chat-keys.ts`); `/…` lines are sent like any text, to the app's routes. The
 * prompts sent from this chat are its history (↑/↓, Ctrl+R), kept for as long as it is mounted.
 */
export function InkChat<Ctx extends JsonObject>({ definition, options, backend, eventLabels, header, approvals }: Props<Ctx>) {
  const chat = useChatSession(definition, options)
  const { exit } = useApp()
  useBracketedPaste()
  const printKey = useReprintOnResize()
  const [editing, setEditing] = useState<string | undefined>(undefined)
  // The cursor lives here, the text in the controller; a text changed elsewhere (sent, loaded
  // for an edit) puts the cursor at its end.
  const line = useRef<LineState>({ text: '', cursor: 0 })
  const [, setCursorShown] = useState(0)
  const [closedDialog, setClosedDialog] = useState<string | undefined>(undefined)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  // Keys can arrive faster than React re-renders: read live values from the controller and refs.
  const editingRef = useRef(editing)
  const history = useRef<PromptHistory>(emptyHistory())
  const browse = useRef<HistoryBrowse>(atDraft)
  const [search, setSearch] = useState<HistorySearch | undefined>(undefined)
  const searchRef = useRef(search)
  const [escArmed, setEscArmed] = useState(false)
  const escArmedRef = useRef(escArmed)
  const printed = useRef<readonly PrintedEntry[]>([])
  // the controller's error belongs to the reply that failed with it, which settles in the same update
  // An agent's partial answer, split from the fallback's answer by `failedAt`, says the agent failed.
  const describeFailure = (message: Message) => {
    const trace = chat.failedAt.has(message.id) ? replyTrace(chat.traces, message.id, chat.messages) : undefined
    return agentFailedIn(trace) ? fallbackFailureLine(trace) : failureLine(message, chat.error ?? undefined)
  }
  printed.current = appendSettled(printed.current, chat.messages, replyLabel(chat.traces), chat.dialogLog, describeFailure, chat.failedAt)

  const pending = chat.pendingDialog
  const dialogOpen = pending !== undefined && pending.toolId !== closedDialog
  // A choice list or button group in the last answer gets a picker (an agent dialog comes first).
  const [closedComponent, setClosedComponent] = useState<string | undefined>(undefined)
  // which component is answerable now is the view's (chatrail/view `pendingComponent`: answered ones, in history or in flight, never)
  const component = pending === undefined && chat.status !== 'streaming' ? chat.ui.pendingComponent : undefined
  const componentOpen = component !== undefined && component.key !== closedComponent
  // an approval request bound to its record, when the app says where records are decided
  const approval = approvals !== undefined && pending === undefined && component === undefined && chat.status !== 'streaming' ? pendingApprovalOf(chat.messages) : undefined
  const approvalShown = approval !== undefined && approval.key !== closedComponent
  // it takes the keys only while its record waits for a decision; decided, it stays on screen and the composer is back
  const [approvalWaiting, setApprovalWaiting] = useState<string | undefined>(undefined)
  const approvalOpen = approvalShown && approvalWaiting === approval.key
  const pickerOpen = dialogOpen || componentOpen || approvalOpen
  const pickerClosed = (pending !== undefined && !dialogOpen) || (component !== undefined && !componentOpen) || (approval !== undefined && approval.key === closedComponent)
  const streaming = chat.status === 'streaming'
  const live = chat.messages.find((message) => message.status === 'streaming')
  // While a dialog waits, an event key would stop the agent's turn (and lose the dialog): none is offered.
  // After a final state, Start over (the snapshot's restart UI event) is the first key.
  // What the keys offer and say is chatrail/view's event bar, with this chat's own labels before the definition's.
  const shortcuts = pending === undefined
    ? shortcutsOfBar(eventBarOf({ definition, snapshot: chat.snapshot, traces: chat.traces, disabled: false, eventLabels }))
    : []
  const lineNow = (input: string): LineState => (line.current.text === input ? line.current : { text: input, cursor: [...input].length })

  const attempt = (work: Promise<unknown>): void => {
    setFailure(undefined)
    work.catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)))
  }
  const setEditingNow = (id: string | undefined): void => {
    editingRef.current = id
    setEditing(id)
  }
  const setSearchNow = (next: HistorySearch | undefined): void => {
    searchRef.current = next
    setSearch(next)
  }
  const setEscArmedNow = (armed: boolean): void => {
    if (escArmedRef.current === armed) return
    escArmedRef.current = armed
    setEscArmed(armed)
  }

  const apply = (action: ChatKeyAction, chatNow: UseChatSessionReturn<Ctx>, shortcutsNow: readonly EventShortcut[]): void => {
    const { input, messages } = chatNow.controller.getState()
    const show = (next: LineState): void => {
      line.current = next
      setCursorShown(next.cursor)
      if (next.text !== input) chatNow.setInput(next.text)
    }
    const searchNow = searchRef.current
    switch (action.type) {
      case 'edit':
        return show(editLine(lineNow(input), action.edit))
      case 'clear-input':
        return chatNow.setInput('')
      case 'send': {
        history.current = recordPrompt(history.current, input)
        browse.current = atDraft
        const id = editingRef.current
        if (id === undefined) return attempt(chatNow.send(input))
        setEditingNow(undefined)
        chatNow.setInput('')
        return attempt(chatNow.edit(id, input, { regenerate: true }))
      }
      case 'stop':
        return chatNow.stop()
      case 'arm-edit-last':
        return setEscArmedNow(true)
      case 'history-older': {
        const step = historyOlder(history.current, browse.current, input)
        if (step === undefined) return
        browse.current = step.browse
        // the cursor at the end of the first line: a shell's place for a one-line prompt, and for a
        // prompt of several lines still on the first, so the next ↑ walks on
        return show({ text: step.text, cursor: [...(linesOf(step.text)[0] ?? '')].length })
      }
      case 'history-newer': {
        const step = historyNewer(history.current, browse.current)
        if (step === undefined) return
        browse.current = step.browse
        return show({ text: step.text, cursor: [...step.text].length })
      }
      case 'search-start':
        return setSearchNow(startSearch(input))
      case 'search-query':
        return searchNow === undefined ? undefined : setSearchNow(refineSearch(history.current, searchNow, action.query))
      case 'search-older':
        return searchNow === undefined ? undefined : setSearchNow(searchOlder(history.current, searchNow))
      case 'search-accept':
      case 'search-cancel': {
        if (searchNow === undefined) return
        setSearchNow(undefined)
        browse.current = atDraft
        const text = action.type === 'search-accept' ? searchResult(history.current, searchNow) : searchNow.draft
        return show({ text, cursor: [...text].length })
      }
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
      case 'version': {
        const place = chatNow.view.getSnapshot().latestVersions
        const target = place === undefined ? -1 : place.index + action.step
        if (place === undefined || target < 0 || target >= place.count) return
        if (!chatNow.view.switchVersion(place.messageId, target)) return
        // the switched-to version is printed again below: a terminal cannot take the old lines back
        printed.current = reprintBranch(printed.current, chatNow.controller.getState().messages, place.at, `version ${target + 1}/${place.count}`)
        return
      }
      case 'event': {
        const shortcut = shortcutsNow[action.index]
        if (shortcut !== undefined) attempt(chatNow.sendEvent(shortcut.uiEvent, shortcut.label))
        return
      }
      case 'open-dialog':
        setClosedComponent(undefined)
        return setClosedDialog(undefined)
      case 'quit':
        chatNow.stop()
        return exit()
    }
  }

  // Ink re-subscribes a changed handler in a passive effect, which can run after the next key:
  // the handler reads this render's values through a ref, never through its closure.
  const current = useRef({ chat, pending, pickerOpen, pickerClosed, shortcuts, apply })
  current.current = { chat, pending, pickerOpen, pickerClosed, shortcuts, apply }
  // The one key listener, always active: toggling the last active useInput would drop raw mode
  // for a moment, and a freshly mounted picker only listens after its effect runs; either way a
  // key typed then would be lost. So an open picker gets its keys from here (`keysRef`).
  const pickerKeys = useRef<KeyHandler | undefined>(undefined)
  useKeys((input, key, paste) => {
    const now = current.current
    if (now.pickerOpen) {
      pickerKeys.current?.(input, key, paste)
      return
    }
    const state = now.chat.controller.getState()
    const searching = searchRef.current
    const action = chatKeyAction(input, key, {
      streaming: state.status === 'streaming',
      editing: editingRef.current !== undefined,
      input: state.input,
      cursor: lineNow(state.input).cursor,
      dialogClosed: now.pickerClosed,
      paste,
      escArmed: escArmedRef.current,
      canEditLast: state.messages.some((message) => message.role === 'user'),
      versions: now.chat.view.getSnapshot().latestVersions !== undefined,
      ...(searching === undefined ? {} : { searchQuery: searching.query }),
    })
    // Esc Esc is two keys in a row: any other key in between disarms it (no timer)
    setEscArmedNow(action?.type === 'arm-edit-last')
    if (action !== undefined) now.apply(action, now.chat, now.shortcuts)
  })

  const answer = (toolId: string, value: DialogAnswerInput): void => {
    setClosedDialog(toolId)
    attempt(chat.answerDialog(toolId, value))
  }
  // Esc only closes the picker: stopping the turn would end the agent run the dialog belongs to.
  const dismiss = (toolId: string): void => setClosedDialog(toolId)

  const lastTrace = chat.traces.at(-1)
  // a failed reply prints its own error line; this one is for failures no reply shows
  const replyFailed = chat.messages.at(-1)?.status === 'error'
  const error = failure ?? (replyFailed ? undefined : chat.error?.message)
  return (
    <Box flexDirection="column">
      <Transcript
        printed={printed.current}
        printKey={printKey}
        {...(live === undefined ? {} : { live })}
        {...(header === undefined ? {} : { header })}
        liveHiddenToolIds={chat.dialogLog.map((entry) => entry.dialog.toolId)}
      />
      {error === undefined ? null : <Text color="red">error: {error}</Text>}
      {componentOpen && !dialogOpen ? (
        <ComponentPicker
          key={component.key}
          pending={component}
          keysRef={pickerKeys}
          onDismiss={() => setClosedComponent(component.key)}
          onChoose={(choice) => {
            setClosedComponent(component.key)
            attempt(chat.view.interact(component.messageId, component.part, component.event, choice.value, choice.label))
          }}
        />
      ) : null}
      {approvalShown && approvals !== undefined && !dialogOpen ? (
        <BoundApprovalPrompt
          key={approval.key}
          source={approvals}
          token={approval.token}
          title={approval.title}
          keysRef={pickerKeys}
          onDismiss={() => setClosedComponent(approval.key)}
          onWaiting={(waiting) => setApprovalWaiting(waiting ? approval.key : undefined)}
        />
      ) : null}
      {dialogOpen ? (
        <DialogPicker
          key={pending.toolId}
          dialog={pending}
          onAnswer={(value) => answer(pending.toolId, value)}
          onDismiss={() => dismiss(pending.toolId)}
          keysRef={pickerKeys}
        />
      ) : null}
      <StatusLine
        state={chat.snapshot.state}
        final={chat.snapshot.final}
        {...(lastTrace === undefined ? {} : { lastTurn: lastTrace })}
        {...(chat.snapshot.agent === undefined ? {} : { agent: chat.snapshot.agent })}
        {...(backend === undefined ? {} : { backend })}
      />
      <EventShortcuts events={shortcuts} ended={chat.snapshot.final} />
      {pickerOpen ? (
        <Text dimColor>Answer above · Esc closes the picker · Tab reopens it</Text>
      ) : (
        <Composer
          input={chat.input}
          cursor={lineNow(chat.input).cursor}
          streaming={streaming}
          editing={editing !== undefined}
          dialogClosed={pickerClosed}
          escArmed={escArmed}
          versions={!streaming && chat.ui.latestVersions !== undefined}
          {...(search === undefined ? {} : {
            search: {
              query: search.query,
              failed: search.failed,
              ...(search.match === undefined ? {} : { match: history.current.entries[search.match] ?? '' }),
            },
          })}
        />
      )}
    </Box>
  )
}
