import { useInput, useStdin, useStdout } from 'ink'
import type { Key } from 'ink'
import { useEffect, useRef } from 'react'
import { bracketedPasteOff, bracketedPasteOn, readKeys } from './key-events.js'
import type { KeyReaderState } from './key-events.js'

/**
 * `useInput`, one call per key: a burst that arrived in one read is split back into its keys and
 * a paste comes as one call with `paste` set (see `readKeys`). The handler runs synchronously for
 * every key, so it must read live state (refs, `controller.getState()`), not its render's closure.
 */
export function useKeys(handler: (input: string, key: Key, paste: boolean) => void, options: { isActive?: boolean } = {}): void {
  const reader = useRef<KeyReaderState>({ pasting: false })
  useInput((input, key) => {
    const { events, state } = readKeys(input, key, reader.current)
    reader.current = state
    for (const event of events) handler(event.input, event.key, event.paste)
  }, options)
}

/**
 * Asks the terminal to bracket pastes while mounted (only on a raw-mode TTY), so a pasted line
 * break is text rather than Enter. Terminals that do not know the mode ignore it.
 */
export function useBracketedPaste(): void {
  const { stdout } = useStdout()
  const { isRawModeSupported } = useStdin()
  useEffect(() => {
    if (isRawModeSupported !== true || stdout.isTTY !== true) return
    stdout.write(bracketedPasteOn)
    return () => {
      stdout.write(bracketedPasteOff)
    }
  }, [stdout, isRawModeSupported])
}
