import type { AgentChat, AgentMessage } from '../contract/agent-chat.js'
import type { Dialog } from '../contract/dialog.js'
import { terminalText } from '../contract/terminal-text.js'

/**
 * The human view of `chatrail inspect` (pure): the state block, the pending dialog as a card
 * (plans and questions in full, never truncated), then the last messages one line each. Every
 * control character the chat carries (ESC, BEL, C1) is shown as a symbol, never printed raw: a
 * transcript cannot retitle, clear or write the clipboard of the terminal (contract/terminal-text.ts).
 */

export interface ChatViewOptions {
  last: number
  source: string
  /** Where the session ran (the transcript's own metadata). */
  cwd?: string
  /** Said after the reader's own warnings (the unread-lines count of `chatrail inspect`). */
  extraWarnings?: readonly string[]
}

/** Pure, apart from the local time zone the message times are shown in. */
export function formatChatView(chat: AgentChat, options: ChatViewOptions): string {
  const out: string[] = []
  out.push(`${chat.agent} · ${options.source}${chat.sessionId ? ` · session ${chat.sessionId}` : ''}`)
  if (options.cwd !== undefined) out.push(`  cwd     ${options.cwd}`)
  const times = chat.messages.flatMap((m) => (m.at === undefined || Number.isNaN(Date.parse(m.at)) ? [] : [new Date(m.at)]))
  const first = times[0]
  const latest = times.at(-1)
  if (first !== undefined && latest !== undefined) out.push(`  time    ${dateTime(first)}${dateTime(latest) === dateTime(first) ? '' : ` → ${sameDay(first, latest) ? clock(latest) : dateTime(latest)}`}`)
  out.push(`  state   ${chat.state}`)
  out.push(`  status  ${chat.status}`)
  if (chat.detail) out.push(`  detail  ${chat.detail}`)
  if (chat.usage) out.push(`  usage   ${chat.usage.inputTokens} in / ${chat.usage.outputTokens} out tokens`)
  out.push(`  read    ${count(chat.cursor.lines, 'line')}, ${count(chat.cursor.offset, 'byte')}, ${count(chat.messages.length, 'message')}`)
  for (const warning of [...chat.warnings, ...(options.extraWarnings ?? [])]) out.push(`  warning ${warning}`)
  const pending = pendingDialogOf(chat)
  if (pending) out.push('', ...dialogCard(pending.dialog, pending.live))
  const shown = options.last <= 0 ? [] : chat.messages.slice(-options.last)
  if (shown.length > 0) {
    out.push('', shown.length < chat.messages.length ? `last ${shown.length} of ${count(chat.messages.length, 'message')}:` : 'messages:')
    const width = String(shown[shown.length - 1]?.seq ?? 0).length
    const timed = shown.some((m) => m.at !== undefined)
    for (const message of shown) out.push(`  #${String(message.seq).padStart(width)}  ${timed ? `${messageTime(message, first, latest)}  ` : ''}${messageLine(message)}`)
  }
  return terminalText(out.join('\n'))
}

/** `1 message`, `2 messages`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** A message's local time: `HH:MM:SS` when the whole chat is one day, else with the date; blank when unknown. */
function messageTime(message: AgentMessage, first: Date | undefined, latest: Date | undefined): string {
  const oneDay = first !== undefined && latest !== undefined && sameDay(first, latest)
  const at = message.at === undefined ? Number.NaN : Date.parse(message.at)
  if (Number.isNaN(at)) return ' '.repeat(oneDay ? 8 : 19)
  return oneDay ? clock(new Date(at)) : dateTime(new Date(at))
}

function dateTime(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${clock(date)}`
}

function clock(date: Date): string {
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
}

function two(n: number): string {
  return String(n).padStart(2, '0')
}

/** The dialog waiting for an answer: the live one, else the transcript's pending tail dialog. */
function pendingDialogOf(chat: AgentChat): { dialog: Dialog; live: boolean } | undefined {
  if (chat.pendingDialog) return { dialog: chat.pendingDialog, live: true }
  if (chat.state !== 'question') return undefined
  const last = [...chat.messages].reverse().find((m) => m.kind === 'dialog')
  return last?.dialog && last.dialog.outcome === undefined ? { dialog: last.dialog, live: false } : undefined
}

/** The card's lines; `formatChatView` makes them safe for a terminal. */
export function dialogCard(dialog: Dialog, live: boolean): string[] {
  const title = dialog.kind === 'plan' ? 'plan waiting for approval' : dialog.questions ? `${dialog.questions.length} questions waiting for an answer` : 'question waiting for an answer'
  const lines = [`┌─ ${title} · ${dialog.toolId}${live ? ' · live (hook spool)' : ''}`]
  const bar = (text: string): void => {
    for (const line of text.split('\n')) lines.push(`│ ${line}`)
  }
  if (dialog.kind === 'plan') {
    bar(dialog.prompt)
    bar('')
    dialog.options.forEach((o, i) => bar(`  ${i + 1}. ${o.label}${o.isOther ? ' (with feedback)' : ''}`))
  } else {
    const questions = dialog.questions ?? [{ question: dialog.prompt, options: dialog.options, multiSelect: dialog.multiSelect }]
    questions.forEach((q, qi) => {
      if (qi > 0) bar('')
      bar(`${'header' in q && q.header ? `[${q.header}] ` : ''}${q.question}${q.multiSelect ? '  (choose any)' : ''}`)
      q.options.forEach((o, i) => bar(`  ${i + 1}. ${o.label}${o.isOther ? ' (type your own)' : ''}${o.description ? ` — ${o.description}` : ''}`))
    })
  }
  lines.push(`└─ ${dialog.answerable ? 'answerable from chat' : 'answer it in the agent\'s own UI'}`)
  return lines
}

function messageLine(message: AgentMessage): string {
  const who = (message.kind === 'text' ? (message.role ?? 'text') : message.kind).padEnd(9)
  if (message.tool) {
    const output = message.tool.output === undefined ? '' : `  → ${oneLine(message.tool.output, 60)}`
    return `${who}  ${message.tool.name} [${message.tool.status}] ${oneLine(JSON.stringify(message.tool.input) ?? '', 60)}${output}`
  }
  if (message.dialog) {
    const d = message.dialog
    return `${who}  ${d.kind === 'plan' ? 'plan' : 'question'}: ${oneLine(d.prompt, 60)}  ${outcomeText(d)}`
  }
  return `${who}  ${oneLine(message.text ?? '', 100)}`
}

function outcomeText(dialog: Dialog): string {
  const o = dialog.outcome
  if (o === undefined) return '(pending)'
  if (o.dismissed) return '→ dismissed'
  if (dialog.kind === 'plan') return o.approved ? '→ approved' : `→ rejected${o.feedback ? `: ${oneLine(o.feedback, 40)}` : ''}`
  const answers = (o.results ?? []).map((r) => [...r.chosen, ...(r.otherText ? [`“${r.otherText}”`] : [])].join(', ') || '(no answer)')
  return `→ ${oneLine(answers.join(' | '), 60)}`
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
