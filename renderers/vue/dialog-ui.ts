import { defineComponent, h, onMounted, ref, useId, watch } from 'vue'
import type { PropType, VNodeChild } from 'vue'
import type { Dialog, DialogAnswerInput, DialogQuestion } from '../../src/contract/dialog.js'
import { answerOf, answerText, noChoice, questionsOf } from '../../src/view/dialog-answers.js'
import type { DialogChoice as Choice } from '../../src/view/dialog-answers.js'
import type { DialogLabels } from '../../src/view/dialog-labels.js'
import type { MarkdownRenderer, MarkdownRenderOptions } from './markdown.js'

type CodeWords = MarkdownRenderOptions['labels']

/** A plan in full: markdown with headings from h4 down (under the card's h3 title), its copy buttons in the app's words. */
const plan = (source: string, markdown: MarkdownRenderer | undefined, labels: CodeWords | undefined): VNodeChild =>
  h('div', { 'data-chatrail-plan': '' }, [markdown === undefined ? h('div', { 'data-chatrail-markdown-source': '' }, source) : markdown(source, { headingLevel: 4, labels })])

/** One question: a fieldset of radio buttons (or checkboxes) and an Other row whose text field takes the focus. */
const Question = defineComponent({
  name: 'DialogQuestion',
  props: {
    question: { type: Object as PropType<DialogQuestion>, required: true },
    choice: { type: Object as PropType<Choice>, required: true },
    disabled: Boolean,
    words: { type: Object as PropType<DialogLabels>, required: true },
    onChange: { type: Function as PropType<(choice: Choice) => void>, required: true },
  },
  setup(props) {
    const name = useId()
    const otherField = ref<HTMLInputElement>()
    watch(() => props.choice.other, (on) => { if (on) otherField.value?.focus() }, { flush: 'post' })
    return () => {
      const { question, choice, words } = props
      const multi = question.multiSelect
      const other = question.options.find((option) => option.isOther === true) ?? { label: words.other, isOther: true }
      const rows = [...question.options.filter((option) => option.isOther !== true), other]
      const withOther = (on: boolean, otherText = choice.otherText): Choice => ({ chosen: multi ? choice.chosen : [], other: on, otherText })
      return h('fieldset', { 'data-chatrail-question': '', disabled: props.disabled }, [
        h('legend', [
          question.header === undefined ? null : h('span', { 'data-chatrail-question-header': '' }, question.header),
          h('span', { 'data-chatrail-question-text': '' }, question.question),
          multi ? h('span', { 'data-chatrail-question-hint': '' }, ` ${words.chooseAny}`) : null,
        ]),
        ...rows.map((option) => {
          const selected = option === other ? choice.other : choice.chosen.includes(option.label)
          const toggle = (): void => {
            if (option === other) props.onChange(withOther(multi ? !choice.other : true))
            else if (!multi) props.onChange({ ...choice, chosen: [option.label], other: false })
            else props.onChange({ ...choice, chosen: selected ? choice.chosen.filter((label) => label !== option.label) : [...choice.chosen, option.label] })
          }
          return h('label', { key: option.label, 'data-chatrail-option': '', 'data-chatrail-other': option === other ? '' : undefined, 'data-chatrail-selected': selected ? '' : undefined }, [
            h('input', { type: multi ? 'checkbox' : 'radio', name, checked: selected, onChange: toggle }),
            h('span', { 'data-chatrail-option-label': '' }, option.label),
            option.description === undefined ? null : h('span', { 'data-chatrail-option-description': '' }, option.description),
          ])
        }),
        choice.other
          ? h('input', { ref: otherField, type: 'text', 'data-chatrail-other-text': '', 'aria-label': words.otherAnswerOf(other.label), placeholder: words.otherPlaceholder, value: choice.otherText, onInput: (event: Event) => props.onChange(withOther(true, (event.target as HTMLInputElement).value)) })
          : null,
      ])
    }
  },
})

/** What a card gets from the entry's `<DialogCard>`, which resolved the chat and its words. */
const cardProps = {
  /** The card's DOM id (the entry's `dialogCardId`: the collapsed composer points at it). */
  id: { type: String, required: true as const },
  dialog: { type: Object as PropType<Dialog>, required: true as const },
  words: { type: Object as PropType<DialogLabels>, required: true as const },
  /** Where the answer goes: the chat's `answerDialog`, or the card's `onAnswer`. */
  deliver: { type: Function as PropType<(toolId: string, answer: DialogAnswerInput) => Promise<unknown>>, required: true as const },
  markdown: { type: Function as PropType<MarkdownRenderer>, default: undefined },
  /** The app's words for the plan's copy-code buttons (the chat's labels). */
  codeWords: { type: Object as PropType<CodeWords>, default: undefined },
}

/** A pending dialog: the card takes the focus as it arrives; its answer goes through the chat's `answerDialog`; a failure shows in it. */
const PendingDialog = defineComponent({
  name: 'PendingDialog',
  props: cardProps,
  setup(props) {
    const card = ref<HTMLElement>()
    const busy = ref(false)
    const error = ref<string>()
    const choices = ref<Choice[]>([])
    const feedback = ref('')
    const titleId = useId()
    onMounted(() => card.value?.focus({ preventScroll: true }))
    const answer = (input: DialogAnswerInput): void => {
      if (busy.value) return
      busy.value = true
      error.value = undefined
      props.deliver(props.dialog.toolId, input).then(
        () => { busy.value = false },
        (failure: unknown) => { busy.value = false; error.value = failure instanceof Error ? failure.message : String(failure) },
      )
    }
    const questionForm = (words: DialogLabels): VNodeChild => {
      const questions = questionsOf(props.dialog)
      const rows = questions.map((question, i) => ({ question, choice: choices.value[i] ?? noChoice }))
      const answers = rows.map(({ question, choice }) => answerOf(question, choice))
      // every question needs a chosen option or Other text
      const complete = answers.every((item) => item.chosen.length > 0 || item.otherText !== undefined)
      return h('form', { 'data-chatrail-dialog-form': '', onSubmit: (event: Event) => { event.preventDefault(); if (complete) answer({ kind: 'question', answers }) } }, [
        ...rows.map(({ question, choice }, i) => h(Question, {
          key: i, question, choice, disabled: busy.value, words,
          onChange: (changed: Choice) => { choices.value = rows.map((row, j) => (j === i ? changed : row.choice)) },
        })),
        // aria-disabled, not disabled, until complete: the button stays in the Tab order
        h('button', { type: 'submit', 'data-chatrail-dialog-submit': '', 'aria-disabled': String(!complete), disabled: busy.value }, busy.value ? words.sending : questions.length > 1 ? words.submitAnswers : words.answer),
      ])
    }
    const planForm = (words: DialogLabels): VNodeChild => {
      const text = feedback.value.trim()
      return h('form', { 'data-chatrail-dialog-form': '', onSubmit: (event: Event) => { event.preventDefault(); answer({ kind: 'plan', approved: true }) } }, [
        h('label', { for: `${titleId}-f`, 'data-chatrail-feedback-label': '' }, words.planFeedback),
        h('textarea', { id: `${titleId}-f`, 'data-chatrail-plan-feedback': '', rows: 2, value: feedback.value, disabled: busy.value, onInput: (event: Event) => { feedback.value = (event.target as HTMLTextAreaElement).value } }),
        h('div', { 'data-chatrail-dialog-buttons': '' }, [
          h('button', { type: 'submit', 'data-chatrail-approve': '', disabled: busy.value }, words.approvePlan),
          h('button', { type: 'button', 'data-chatrail-reject': '', disabled: busy.value, onClick: () => answer({ kind: 'plan', approved: false, ...(text === '' ? {} : { feedback: text }) }) }, text === '' ? words.reject : words.rejectWithFeedback),
        ]),
      ])
    }
    return () => {
      const { dialog, words } = props
      const isPlan = dialog.kind === 'plan'
      return h('section', {
        ref: card, id: props.id, tabindex: -1, 'data-chatrail-dialog': '', 'data-chatrail-dialog-kind': dialog.kind, 'data-chatrail-dialog-state': 'pending', 'aria-labelledby': titleId, 'aria-busy': String(busy.value),
      }, [
        h('h3', { id: titleId, 'data-chatrail-dialog-title': '' }, isPlan ? words.agentProposesPlan : words.agentAsks),
        isPlan ? plan(dialog.prompt, props.markdown, props.codeWords) : null,
        !dialog.answerable
          ? h('p', { 'data-chatrail-dialog-note': '' }, `${isPlan ? '' : `${dialog.prompt} — `}${words.answerElsewhere}`)
          : isPlan ? planForm(words) : questionForm(words),
        error.value === undefined ? null : h('p', { role: 'alert', 'data-chatrail-dialog-error': '' }, error.value),
      ])
    }
  },
})

/** An answered dialog as compact, inert history: one Q→A line per question (a plan's says Approved or Rejected), then the feedback; a plan keeps its text behind a disclosure. */
function summary(dialog: Dialog, words: DialogLabels, markdown: MarkdownRenderer | undefined, codeWords: CodeWords): VNodeChild {
  const outcome = dialog.outcome
  if (outcome === undefined) return null
  const isPlan = dialog.kind === 'plan'
  const lines = isPlan
    ? [{ q: words.plan, a: outcome.approved ? words.approved : words.rejected }]
    : questionsOf(dialog).map((question, i) => {
      return { q: question.question, a: answerText(outcome.results?.find((result) => result.question === question.question) ?? outcome.results?.[i]) }
    })
  // a group, not a region: a chat can hold many answered dialogs, and landmarks must be unique
  return h('div', { role: 'group', 'data-chatrail-dialog': '', 'data-chatrail-dialog-kind': dialog.kind, 'data-chatrail-dialog-state': outcome.dismissed ? 'dismissed' : 'answered', 'aria-label': isPlan ? words.planAnswered : words.questionAnswered }, [
    ...lines.map((line, i) => h('p', { key: i, 'data-chatrail-qa-line': '' }, [
      h('span', { 'data-chatrail-qa-q': '' }, line.q),
      h('span', { 'data-chatrail-qa-arrow': '', 'aria-hidden': 'true' }, ' → '),
      outcome.dismissed
        ? i === 0 ? h('span', { 'data-chatrail-dismissed': '' }, words.dismissed) : null
        : line.a === null ? h('span', { 'data-chatrail-unanswered': '' }, words.noAnswer) : h('span', { 'data-chatrail-qa-a': '' }, line.a),
    ])),
    outcome.feedback === undefined ? null : h('p', { 'data-chatrail-feedback': '' }, outcome.feedback),
    isPlan ? h('details', [h('summary', words.showPlan), plan(dialog.prompt, markdown, codeWords)]) : null,
  ])
}

/**
 * The dialog UI chunk of chatrail/vue (loaded by `<DialogCard>` on first use, or as soon as the
 * session has a live agent): a pending card (options, multi-select, an Other row with free text; a
 * plan in full with Approve / Reject with feedback) or an answered dialog's Q→A summary.
 */
export const DialogCardContent = defineComponent({
  name: 'DialogCardContent',
  // the entry's loading placeholder takes the same props (its `note`), which are no attributes here
  inheritAttrs: false,
  props: cardProps,
  setup(props) {
    return () => (props.dialog.outcome === undefined
      ? h(PendingDialog, props)
      : summary(props.dialog, props.words, props.markdown, props.codeWords))
  },
})
