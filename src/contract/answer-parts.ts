import { componentChunk } from './component-chunk.js'
import type { ComponentPart } from './component-part.js'
import type { ContentPart } from './message.js'

/**
 * An answer's `content` and, once it holds a component, its `parts`, built as its chunks stream.
 * One rule for every place that builds an answer (the controller, the server's turn, a restored
 * message): `content` is the concatenation of every text chunk's content, a component counting as
 * its chunk's content (`\n<summary>\n`), which is exactly what a consumer that knows no components
 * shows; `parts` are the text runs between the components and the components, in order.
 */
export class AnswerParts {
  #content = ''
  #parts: ContentPart[] | undefined

  get content(): string {
    return this.#content
  }

  /** `undefined` while the answer holds no component (then `content` is the whole answer). */
  get parts(): ContentPart[] | undefined {
    return this.#parts
  }

  text(delta: string): void {
    this.#content += delta
    const parts = this.#parts
    if (!parts) return
    const last = parts[parts.length - 1]
    if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: last.text + delta }
    else parts.push({ type: 'text', text: delta })
  }

  component(part: ComponentPart): void {
    this.#parts ??= this.#content === '' ? [] : [{ type: 'text', text: this.#content }]
    this.#parts.push(part)
    this.#content += componentChunk(part).content as string
  }
}
