import type { AgentChat, AgentMessage } from '../contract/agent-chat.js'
import type { Dialog } from '../contract/dialog.js'

/**
 * The human view of `chatrail inspect` (pure): the state block, the pending dialog as a card
 * (plans and questions in full, never truncated), then the last messages one line each.
 */

export function formatChatView(chat: AgentChat, options: { last: number; source: string }): string {
  const out: string[] = []
  out.push(`${chat.agent} · ${options.source}${chat.sessionId ? ` · session ${chat.sessionId}` : ''}`)
  out.push(`  state   ${chat.state}`)
  out.push(`  status  ${chat.status}`)
  if (chat.detail) out.push(`  detail  ${chat.detail}`)
  if (chat.usage) out.push(`  usage   ${chat.usage.inputTokens} in / ${chat.usage.outputTokens} out tokens`)
  out.push(`  read    ${chat.cursor.lines} lines, ${chat.cursor.offset} bytes, ${chat.messages.length} messages`)
  for (const warning of chat.warnings) out.push(`  warning ${warning}`)
  const pending = pendingDialogOf(chat)
  if (pending) out.push('', ...dialogCard(pending.dialog, pending.live))
  const shown = options.last <= 0 ? [] : chat.messages.slice(-options.last)
  if (shown.length > 0) {
    out.push('', shown.length < chat.messages.length ? `last ${shown.length} of ${chat.messages.length} messages:` : 'messages:')
    const width = String(shown[shown.length - 1]?.seq ?? 0).length
    for (const message of shown) out.push(`  #${String(message.seq).padStart(width)}  ${messageLine(message)}`)
  }
  return out.join('\n')
}

/** The dialog waiting for an answer: the live one, else the transcript's pending tail dialog. */
function pendingDialogOf(chat: AgentChat): { dialog: Dialog; live: boolean } | undefined {
  if (chat.pendingDialog) return { dialog: chat.pendingDialog, live: true }
  if (chat.state !== 'question') return undefined
  const last = [...chat.messages].reverse().find((m) => m.kind === 'dialog')
  return last?.dialog && last.dialog.outcome === undefined ? { dialog: last.dialog, live: false } : undefined
}

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
