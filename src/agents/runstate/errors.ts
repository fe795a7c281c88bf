import { ChatrailError, markErrorClass } from '../../contract/errors.js'

/** A non-empty transcript path that no longer exists. Other I/O errors pass through unchanged. */
export class TranscriptGoneError extends ChatrailError {
  readonly path: string

  constructor(path: string, cause?: unknown) {
    super({
      code: 'TRANSCRIPT_GONE',
      message: `Transcript ${path} does not exist (it was moved, deleted, or never written).`,
      hint: 'Locate the current transcript again (a /clear or resume starts a new file).',
      cause,
    })
    this.name = 'TranscriptGoneError'
    this.path = path
  }

  static override isInstance = markErrorClass(TranscriptGoneError, 'TranscriptGoneError')
}
