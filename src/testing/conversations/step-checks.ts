import type { TurnExpectation } from './file-schema.js'
import { describeStep, sendsUserMessage } from './step.js'
import type { ConversationStep } from './step.js'

/** A problem across turns, at a path relative to the turn (1-based `turn`). */
export interface TurnProblem {
  turn: number
  path: (string | number)[]
  code: string
  message: string
  hint: string
}

/**
 * Checks what a schema cannot: `edit` and `regenerate` name an earlier `user`/`event` turn, a
 * `stop` follows a turn that streams, `reply` and `replyMatches` are not both given and
 * `replyMatches` compiles. Pure; problems come back in turn order.
 */
export function checkConversationTurns(turns: readonly { number: number; step: ConversationStep; expect: TurnExpectation }[]): TurnProblem[] {
  const problems: TurnProblem[] = []
  const byNumber = new Map(turns.map((turn) => [turn.number, turn]))
  for (const turn of turns) {
    const reference = referencedTurn(turn.step)
    if (reference !== undefined) {
      const target = byNumber.get(reference.turn)
      const senders = turns.filter((other) => other.number < turn.number && sendsUserMessage(other.step)).map((other) => other.number)
      if (reference.turn >= turn.number || target === undefined || !sendsUserMessage(target.step)) {
        const what = target === undefined || reference.turn >= turn.number ? 'is not an earlier turn' : `is \`${describeStep(target.step)}\`, not a user or event turn`
        problems.push({
          turn: turn.number,
          path: [...reference.path, 'turn'],
          code: 'BAD_TURN_REFERENCE',
          message: `turn ${turn.number}: ${reference.key}.turn ${reference.turn} ${what}`,
          hint: senders.length === 0 ? 'Turns are numbered from 1; send a `user` or `event` turn first.' : `Turns are numbered from 1; the earlier user/event turns are ${senders.join(', ')}.`,
        })
      }
    }
    if ('stop' in turn.step) {
      const previous = byNumber.get(turn.number - 1)
      if (previous === undefined || 'stop' in previous.step) {
        problems.push({ turn: turn.number, path: [], code: 'STOP_WITHOUT_TURN', message: `turn ${turn.number}: \`stop\` must follow a turn that streams a reply`, hint: 'Put `stop` right after the user/event/retry/regenerate/edit turn it interrupts.' })
      }
    }
    if (turn.expect.reply !== undefined && turn.expect.replyMatches !== undefined) {
      problems.push({ turn: turn.number, path: ['expect', 'replyMatches'], code: 'REPLY_TWICE', message: `turn ${turn.number}: give \`reply\` or \`replyMatches\`, not both`, hint: 'Use `reply` for the exact text, `replyMatches` for a regular expression.' })
    }
    if (turn.expect.replyMatches !== undefined) {
      try {
        new RegExp(turn.expect.replyMatches)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        problems.push({ turn: turn.number, path: ['expect', 'replyMatches'], code: 'BAD_REGEX', message: `turn ${turn.number}: replyMatches is not a valid regular expression (${reason})`, hint: 'Write the pattern without surrounding slashes; quote it in YAML if it holds `:` or `#`.' })
      }
    }
  }
  return problems
}

function referencedTurn(step: ConversationStep): { key: 'edit' | 'regenerate'; turn: number; path: (string | number)[] } | undefined {
  if ('edit' in step) return { key: 'edit', turn: step.edit.turn, path: ['edit'] }
  if ('regenerate' in step && step.regenerate !== true) return { key: 'regenerate', turn: step.regenerate.turn, path: ['regenerate'] }
  return undefined
}
