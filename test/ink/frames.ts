import { stripVTControlCharacters } from 'node:util'

interface Rendered {
  lastFrame: () => string | undefined
}

/** The last frame as a reader sees it: no colors, no trailing blanks on lines or at the end. */
export function frameText(rendered: Rendered): string {
  return stripVTControlCharacters(rendered.lastFrame() ?? '')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd()
}

/**
 * Waits (polling, bounded) until the frame satisfies `predicate`, then returns it. Ink renders
 * asynchronously after input and after the controller streams, so tests wait for what they
 * assert instead of sleeping a fixed time. The failure message shows the frame last seen.
 */
export async function waitForFrame(
  rendered: Rendered,
  predicate: (frame: string) => boolean,
  timeoutMs = 3000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const frame = frameText(rendered)
    if (predicate(frame)) return frame
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for the frame; last frame:\n${frame}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Lets Ink's input handling and React's render run before the next key. */
export function tick(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
