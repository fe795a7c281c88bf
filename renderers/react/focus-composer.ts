/**
 * Focus moves to the chat's composer: after an act whose button leaves with it (an edit sent, a
 * regenerate or retry started), the reply is what comes next and the composer is where the user
 * types after it. `from` is any element inside the chat.
 */
export function focusComposer(from: Element | null): void {
  from?.closest('[data-chatrail-chat]')?.querySelector<HTMLElement>('[data-chatrail-composer] [data-chatrail-input]')?.focus()
}
