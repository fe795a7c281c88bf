import { useEffect, useId, useRef, useState } from 'react'
import type { FormEvent, ReactNode } from 'react'
import type { Dialog, DialogAnswerInput, DialogOption, DialogQuestion } from '../../src/contract/dialog.js'
import { answerOf, noChoice, questionsOf } from '../../src/view/dialog-answers.js'
import type { DialogChoice } from '../../src/view/dialog-answers.js'
import type { DialogLabels } from '../../src/view/dialog-labels.js'

// The answer rules are chatrail/view's (dialog-answers.ts), shared by every binding; the form only draws a choice.
export { answerOf, questionsOf }

type Choice = DialogChoice

const EMPTY: Choice = noChoice

function Question({ question, choice, disabled, onChange, words }: {
  question: DialogQuestion
  words: DialogLabels
  choice: Choice
  disabled: boolean
  onChange: (choice: Choice) => void
}): ReactNode {
  const name = useId()
  const otherField = useRef<HTMLInputElement>(null)
  // The Other field appears when Other is chosen, and takes the focus: that is what choosing it is for.
  useEffect(() => { if (choice.other) otherField.current?.focus() }, [choice.other])
  const multi = question.multiSelect
  const other = question.options.find((option) => option.isOther === true) ?? { label: words.other, isOther: true }
  const rows = [...question.options.filter((option) => option.isOther !== true), other]
  // Choosing Other (or typing its text) in a single-select question clears the chosen option.
  const withOther = (on: boolean, otherText = choice.otherText): Choice => ({ chosen: multi ? choice.chosen : [], other: on, otherText })
  const toggle = (option: DialogOption): void => {
    const { label } = option
    if (option === other) onChange(withOther(multi ? !choice.other : true))
    else if (!multi) onChange({ ...choice, chosen: [label], other: false })
    else onChange({ ...choice, chosen: choice.chosen.includes(label) ? choice.chosen.filter((chosen) => chosen !== label) : [...choice.chosen, label] })
  }
  return (
    <fieldset data-chatrail-question="" disabled={disabled}>
      <legend>
        {question.header !== undefined && <span data-chatrail-question-header="">{question.header}</span>}
        <span data-chatrail-question-text="">{question.question}</span>
        {multi && <span data-chatrail-question-hint="">{` ${words.chooseAny}`}</span>}
      </legend>
      {rows.map((option) => {
        const selected = option === other ? choice.other : choice.chosen.includes(option.label)
        return (
          <label key={option.label} data-chatrail-option="" data-chatrail-other={option === other ? '' : undefined} data-chatrail-selected={selected ? '' : undefined}>
            <input type={multi ? 'checkbox' : 'radio'} name={name} checked={selected} onChange={() => toggle(option)} />
            <span data-chatrail-option-label="">{option.label}</span>
            {option.description !== undefined && <span data-chatrail-option-description="">{option.description}</span>}
          </label>
        )
      })}
      {choice.other && (
        <input
          ref={otherField}
          type="text"
          data-chatrail-other-text=""
          aria-label={words.otherAnswerOf(other.label)}
          placeholder={words.otherPlaceholder}
          value={choice.otherText}
          onChange={(event) => onChange(withOther(true, event.target.value))}
        />
      )}
    </fieldset>
  )
}

/** The interactive form of a pending question dialog: one fieldset per question, then Answer. */
export function DialogQuestionForm({ dialog, busy, onAnswer, words }: {
  dialog: Dialog
  words: DialogLabels
  busy: boolean
  onAnswer: (answer: DialogAnswerInput) => void
}): ReactNode {
  const questions = questionsOf(dialog)
  const [choices, setChoices] = useState<Choice[]>([])
  const rows = questions.map((question, i) => ({ question, choice: choices[i] ?? EMPTY }))
  const answers = rows.map(({ question, choice }) => answerOf(question, choice))
  // Every question needs a chosen option or Other text.
  const complete = answers.every((answer) => answer.chosen.length > 0 || answer.otherText !== undefined)
  const submit = (event: FormEvent): void => {
    event.preventDefault()
    if (complete && !busy) onAnswer({ kind: 'question', answers })
  }
  return (
    <form data-chatrail-dialog-form="" onSubmit={submit}>
      {rows.map(({ question, choice }, i) => (
        <Question
          key={i}
          question={question}
          choice={choice}
          disabled={busy}
          words={words}
          onChange={(changed) => setChoices((current) => questions.map((_, j) => (j === i ? changed : current[j] ?? EMPTY)))}
        />
      ))}
      {/* aria-disabled, not disabled, until complete: the button stays in the Tab order, so a keyboard user finds it and hears why it does nothing yet. */}
      <button type="submit" data-chatrail-dialog-submit="" aria-disabled={!complete} disabled={busy}>
        {busy ? words.sending : questions.length > 1 ? words.submitAnswers : words.answer}
      </button>
    </form>
  )
}
