import type { ReactNode } from 'react'
import { isSafeUrl } from '../../src/components/safe-url.js'
import { componentLabels } from '../../src/view/component-labels.js'
import { cellText, sizeText } from '../../src/view/component-text.js'
import type { StandardViewProps } from '../../src/view/component-props.js'
import { useLabels } from './message-ui-context.js'

/**
 * The standard components that show something: progress, sources, a link card, a tool call, a
 * table and a file. Links open natively (a real `<a>`, so middle-click, copy link and the keyboard
 * work), and only to a safe URL (relative or credential-free http(s)); the props schema already
 * refused others, the check here is for a registry that holds its own schema under the key.
 */

function SafeLink({ href, children, download }: { href: string; children: ReactNode; download?: string }): ReactNode {
  if (!isSafeUrl(href)) return <span>{children}</span>
  const external = /^https?:/i.test(href)
  return <a href={href} download={download} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>{children}</a>
}

export function ProgressView({ props }: StandardViewProps<'progress'>): ReactNode {
  const percent = props.value === undefined ? undefined : Math.round(props.value * 100)
  const status = props.status === 'done' ? 'done' : props.status === 'failed' ? 'failed' : percent === undefined ? 'in progress' : `${percent}%`
  return (
    <div data-chatrail-component="progress" data-chatrail-progress-status={props.status ?? 'running'}>
      <div
        role="progressbar"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={props.status === 'done' ? 100 : percent}
        aria-valuetext={status}
        aria-live="polite"
        data-chatrail-progress-track=""
      >
        <span data-chatrail-progress-bar="" style={{ width: `${props.status === 'done' ? 100 : percent ?? 0}%` }} />
      </div>
      <p>{props.label}: {status}</p>
    </div>
  )
}

export function SourceListView({ props }: StandardViewProps<'source-list'>): ReactNode {
  const words = useLabels(componentLabels)
  return (
    <ul role="list" aria-label={words.sourcesList} data-chatrail-component="source-list">
      {props.sources.map((source, index) => (
        <li key={index}>
          <SafeLink href={source.url}>{source.title}</SafeLink>
          {source.snippet === undefined ? null : <span data-chatrail-choice-description="">{source.snippet}</span>}
        </li>
      ))}
    </ul>
  )
}

export function LinkCardView({ props }: StandardViewProps<'link-card'>): ReactNode {
  return (
    <div data-chatrail-component="link-card">
      <SafeLink href={props.href}><span data-chatrail-component-title="">{props.title}</span></SafeLink>
      {props.description === undefined ? null : <p>{props.description}</p>}
    </div>
  )
}

export function ToolCallView({ props }: StandardViewProps<'tool-call'>): ReactNode {
  const words = useLabels(componentLabels)
  return (
    <div role="status" aria-live="polite" aria-label={words.toolCallStatus(props.name, props.status)} data-chatrail-component="tool-call" data-chatrail-tool-status={props.status}>
      <p data-chatrail-component-title=""><code>{props.name}</code> · {props.status}</p>
      <pre data-chatrail-approval-input="">{JSON.stringify(props.args, null, 2)}</pre>
      {props.result === undefined ? null : <p>{props.result}</p>}
    </div>
  )
}

/** A native table (its role is the element's own) in a box that scrolls sideways when wider than the bubble. */
export function TableView({ props }: StandardViewProps<'table'>): ReactNode {
  const words = useLabels(componentLabels)
  return (
    <div data-chatrail-component="table" data-chatrail-table-scroll="" tabIndex={0} role="region" aria-label={props.caption ?? words.table}>
      <table>
        {props.caption === undefined ? null : <caption>{props.caption}</caption>}
        <thead><tr>{props.columns.map((column) => <th key={column.key} scope="col">{column.label}</th>)}</tr></thead>
        <tbody>
          {props.rows.map((row, index) => (
            <tr key={index}>{props.columns.map((column) => <td key={column.key}>{cellText(row[column.key])}</td>)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function FileAttachmentView({ props }: StandardViewProps<'file-attachment'>): ReactNode {
  const details = [props.mimeType, props.size === undefined ? undefined : sizeText(props.size)].filter((item) => item !== undefined)
  return (
    <div data-chatrail-component="file-attachment">
      <SafeLink href={props.url} download={props.name}>{props.name}</SafeLink>
      {details.length === 0 ? null : <span data-chatrail-choice-description=""> {details.join(' · ')}</span>}
    </div>
  )
}
