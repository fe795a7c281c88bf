import { Box, Text } from 'ink'
import type { Dialog, DialogAnswer } from '../../src/contract/dialog.js'
import { terminalText } from '../../src/contract/terminal-text.js'
import { dialogQuestions } from './dialog-picker-state.js'
import { markdownTitle } from './terminal-markdown.js'

/** One Q→A line of an answered dialog. */
export interface QaLine {
  question: string
  answer: string
}

function answerText(answer: DialogAnswer | undefined): string {
  const parts = answer === undefined ? [] : [...answer.chosen, answer.otherText ?? '']
  return parts.filter((part) => part !== '').join(', ') || 'no answer'
}

/**
 * The Q→A lines of a dialog with an outcome: one per question, or for a plan its title and
 * Approved / Rejected (and the feedback). A dialog closed without an answer says "dismissed".
 * Pure; empty while the dialog has no outcome.
 */
export function dialogSummaryLines(dialog: Dialog): QaLine[] {
  const outcome = dialog.outcome
  if (outcome === undefined) return []
  if (dialog.kind === 'plan') {
    const verdict = outcome.dismissed ? 'dismissed' : outcome.approved ? 'Approved' : 'Rejected'
    const feedback = outcome.feedback === undefined || outcome.feedback === '' ? '' : `: ${outcome.feedback}`
    return [{ question: `Plan: ${markdownTitle(dialog.prompt) || 'untitled'}`, answer: `${verdict}${feedback}` }]
  }
  return dialogQuestions(dialog).map((question, index) => ({
    question: question.question,
    answer: outcome.dismissed
      ? 'dismissed'
      : answerText(outcome.results?.find((result) => result.question === question.question) ?? outcome.results?.[index]),
  }))
}

/** An answered (or dismissed) agent dialog in the printed log: who asked, then its Q→A lines. */
export function DialogSummary({ dialog }: { dialog: Dialog }) {
  const lines = dialogSummaryLines(dialog)
  if (lines.length === 0) return null
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text>
        <Text bold color="yellow">agent</Text>
        <Text dimColor> · {dialog.kind === 'plan' ? 'plan' : lines.length > 1 ? 'questions' : 'question'}</Text>
      </Text>
      {lines.map((line, index) => (
        <Text key={index}>
          {terminalText(line.question, { singleLine: true })}
          <Text dimColor> → </Text>
          <Text color={line.answer === 'dismissed' || line.answer === 'no answer' ? 'gray' : 'cyan'}>{terminalText(line.answer, { singleLine: true })}</Text>
        </Text>
      ))}
    </Box>
  )
}
