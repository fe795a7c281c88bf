import { useId, useState } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'
import { componentLabels } from '../../src/view/component-labels.js'
import type { StandardViewProps } from '../../src/view/component-props.js'
import { useLabels } from './message-ui-context.js'

/**
 * The standard components that ask something: a button group, a choice list, a confirmation, an
 * approval request and an error notice's retry. Each sends one interaction; once it is answered
 * (here, in another tab, before a reload) it is disabled and says what was chosen.
 */

function ChosenMark(): ReactNode {
  return <span data-chatrail-chosen-mark="">{` · ${useLabels(componentLabels).chosen}`}</span>
}

export function ButtonGroupView({ props, answered, interact }: StandardViewProps<'button-group'>): ReactNode {
  const words = useLabels(componentLabels)
  return (
    <div role="group" aria-label={props.label ?? words.options} data-chatrail-component="button-group" data-chatrail-answered={answered ? '' : undefined}>
      {props.label === undefined ? null : <p data-chatrail-component-title="">{props.label}</p>}
      <div data-chatrail-component-buttons="">
        {props.buttons.map((button) => {
          const chosen = answered?.value === button.id
          return (
            <button
              key={button.id}
              type="button"
              data-chatrail-variant={button.variant ?? 'secondary'}
              data-chatrail-chosen={chosen ? '' : undefined}
              aria-pressed={answered ? chosen : undefined}
              disabled={answered !== undefined || button.disabled === true}
              onClick={() => interact('press', button.id, button.label)}
            >
              {button.label}{chosen ? <ChosenMark /> : null}
            </button>
          )
        })}
      </div>
    </div>
  )
}

/**
 * A listbox: one tab stop, ↑/↓ (Home/End) move the active option, Enter or Space chooses it, a
 * click chooses at once. The active option is announced through `aria-activedescendant`.
 */
export function ChoiceListView({ props, answered, interact }: StandardViewProps<'choice-list'>): ReactNode {
  const base = useId()
  const chosenIndex = props.choices.findIndex((choice) => choice.id === answered?.value)
  const [active, setActive] = useState(Math.max(0, chosenIndex))
  const promptId = `${base}-prompt`
  const words = useLabels(componentLabels)
  const choose = (index: number): void => {
    const choice = props.choices[index]
    if (choice !== undefined && answered === undefined) interact('select', choice.id, choice.label)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    const last = props.choices.length - 1
    const next = { ArrowDown: Math.min(last, active + 1), ArrowUp: Math.max(0, active - 1), Home: 0, End: last }[event.key]
    if (next !== undefined) { event.preventDefault(); setActive(next); return }
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); choose(active) }
  }
  return (
    <div data-chatrail-component="choice-list" data-chatrail-answered={answered ? '' : undefined}>
      <p id={promptId} data-chatrail-component-title="">{props.prompt ?? words.chooseOne}</p>
      <ul
        role="listbox"
        aria-labelledby={promptId}
        aria-activedescendant={`${base}-${active}`}
        aria-disabled={answered ? true : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        {props.choices.map((choice, index) => (
          <li
            key={choice.id}
            id={`${base}-${index}`}
            role="option"
            aria-selected={index === chosenIndex}
            aria-disabled={answered ? true : undefined}
            data-chatrail-active={index === active ? '' : undefined}
            data-chatrail-chosen={index === chosenIndex ? '' : undefined}
            onClick={() => { setActive(index); choose(index) }}
          >
            <span data-chatrail-choice-label="">{choice.label}{index === chosenIndex ? <ChosenMark /> : null}</span>
            {choice.description === undefined ? null : <span data-chatrail-choice-description="">{choice.description}</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}

function TwoButtons({ answered, yes, no, danger }: {
  answered: StandardViewProps<'confirmation'>['answered']
  yes: { event: string; label: string; send: () => void }
  no: { event: string; label: string; send: () => void }
  danger: boolean
}): ReactNode {
  return (
    <div data-chatrail-component-buttons="">
      {[yes, no].map((button, index) => {
        const chosen = answered?.event === button.event
        return (
          <button
            key={button.event}
            type="button"
            data-chatrail-variant={index === 0 ? (danger ? 'danger' : 'primary') : 'secondary'}
            data-chatrail-chosen={chosen ? '' : undefined}
            aria-pressed={answered ? chosen : undefined}
            disabled={answered !== undefined}
            onClick={button.send}
          >
            {button.label}{chosen ? <ChosenMark /> : null}
          </button>
        )
      })}
    </div>
  )
}

export function ConfirmationView({ props, answered, interact }: StandardViewProps<'confirmation'>): ReactNode {
  const base = useId()
  const words = useLabels(componentLabels)
  const yes = props.confirmLabel ?? words.confirm
  const no = props.cancelLabel ?? words.cancel
  return (
    // an alertdialog in the message flow, not modal: it never takes the focus on its own
    <div role="alertdialog" aria-labelledby={`${base}-t`} aria-describedby={props.body ? `${base}-b` : undefined} data-chatrail-component="confirmation" data-chatrail-answered={answered ? '' : undefined}>
      <p id={`${base}-t`} data-chatrail-component-title="">{props.title}</p>
      {props.body === undefined ? null : <p id={`${base}-b`}>{props.body}</p>}
      <TwoButtons
        answered={answered}
        danger={props.destructive === true}
        yes={{ event: 'confirm', label: yes, send: () => interact('confirm', undefined, yes) }}
        no={{ event: 'cancel', label: no, send: () => interact('cancel', undefined, no) }}
      />
    </div>
  )
}

/** Expired once `expiresAt` passed (read when drawn: a card left open is refused by the session anyway). */
export function ApprovalRequestView({ props, answered, interact }: StandardViewProps<'approval-request'>): ReactNode {
  const base = useId()
  const expired = props.expiresAt !== undefined && Date.parse(props.expiresAt) <= Date.now()
  const words = useLabels(componentLabels)
  return (
    <div role="alertdialog" aria-labelledby={`${base}-t`} data-chatrail-component="approval-request" data-chatrail-answered={answered ? '' : undefined}>
      <p id={`${base}-t`} data-chatrail-component-title="">{props.title}</p>
      <p data-chatrail-approval-name="">{props.action.name}</p>
      <pre data-chatrail-approval-input="">{JSON.stringify(props.action.input, null, 2)}</pre>
      {expired && answered === undefined
        ? <p data-chatrail-component-note="">{words.expired}</p>
        : <TwoButtons
          answered={answered}
          danger={false}
          yes={{ event: 'approve', label: words.approveAction, send: () => interact('approve', undefined, words.approvedTitle(props.title)) }}
          no={{ event: 'reject', label: words.rejectAction, send: () => interact('reject', undefined, words.rejectedTitle(props.title)) }}
        />}
    </div>
  )
}

export function ErrorNoticeView({ props, answered, interact }: StandardViewProps<'error-notice'>): ReactNode {
  const words = useLabels(componentLabels)
  return (
    <div role="alert" data-chatrail-component="error-notice" data-chatrail-answered={answered ? '' : undefined}>
      <p data-chatrail-component-title="">{props.title}</p>
      <p>{props.message}{props.code === undefined ? null : <code> {props.code}</code>}</p>
      {props.retryable === true && (
        <button type="button" disabled={answered !== undefined} onClick={() => interact('retry', undefined, words.retryComponent)}>
          {answered ? words.retried : words.retryComponent}
        </button>
      )}
    </div>
  )
}
