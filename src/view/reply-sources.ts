/**
 * The sources a reply cites, as a UI reads them off its message (`sourcesOf`, the contract's): the
 * view's door to it for a binding's entry, which takes the view model's modules only (chatrail/react
 * hands it to its lazily loaded message UI, message-ui-kit.ts).
 */
export { sourcesOf } from '../contract/message-source.js'
