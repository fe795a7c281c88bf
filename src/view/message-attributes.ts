import type { Message } from '../contract/message.js'
import { uiEventOf } from '../conversation/ui-events.js'

/** The `data-chatrail-*` attributes of a message's element, as every web binding writes them (styles.css reads them). */
export interface MessageAttributes {
  readonly 'data-chatrail-message': ''
  readonly 'data-chatrail-role': Message['role']
  readonly 'data-chatrail-status': Message['status']
  /** The UI event the message stands for (an event button, a chip, a component interaction). */
  readonly 'data-chatrail-event': string | undefined
  /** The user stopped this reply. */
  readonly 'data-chatrail-stopped': '' | undefined
  /** The definition's fallback answer after an agent failed (`layoutStream`'s `fallback` part). */
  readonly 'data-chatrail-fallback': '' | undefined
}

/**
 * Pure: the attributes of `message` drawn as `part` of a stream item (`layoutStream`): the first
 * part of a reply split around a dialog is complete and never stopped, whatever the whole reply is.
 * An undefined value is an attribute left out.
 */
export function messageAttributesOf(message: Message, part: 'before' | 'after' | 'fallback' | undefined, stopped: boolean): MessageAttributes {
  const streaming = message.status === 'streaming' && part !== 'before'
  return {
    'data-chatrail-message': '',
    'data-chatrail-role': message.role,
    'data-chatrail-status': streaming ? 'streaming' : part === 'before' ? 'complete' : message.status,
    'data-chatrail-event': uiEventOf(message),
    'data-chatrail-stopped': stopped && part !== 'before' ? '' : undefined,
    'data-chatrail-fallback': part === 'fallback' ? '' : undefined,
  }
}
