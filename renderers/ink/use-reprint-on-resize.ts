import { useStdout } from 'ink'
import { useEffect, useState } from 'react'

/** Clears the screen and the scrollback and homes the cursor (what `clear` does). */
const CLEAR_TERMINAL = '\u001B[2J\u001B[3J\u001B[H'
/** Resize events come in bursts while a window is dragged; the log is printed again once they settle. */
const RESIZE_SETTLE_MS = 60

/**
 * A narrower terminal re-wraps what is already on the screen: lines Ink drew at the old width
 * break mid-word and its erase count no longer covers the live area, which leaves a second status
 * line behind. So on a width change the screen is cleared and the whole log printed again at the
 * new width (the returned key remounts `<Static>`).
 */
export function useReprintOnResize(): number {
  const { stdout } = useStdout()
  const [printKey, setPrintKey] = useState(0)
  useEffect(() => {
    if (stdout.isTTY !== true) return
    let columns = stdout.columns
    let timer: ReturnType<typeof setTimeout> | undefined
    const resized = (): void => {
      if (timer !== undefined) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = undefined
        if (stdout.columns === columns) return
        columns = stdout.columns
        stdout.write(CLEAR_TERMINAL)
        setPrintKey((key) => key + 1)
      }, RESIZE_SETTLE_MS)
    }
    stdout.on('resize', resized)
    return () => {
      if (timer !== undefined) clearTimeout(timer)
      stdout.off('resize', resized)
    }
  }, [stdout])
  return printKey
}
