import type { AgentMessage, AgentTool } from '../../contract/agent-chat.js'

/**
 * The ordered message list of one rollout fold. Seqs come from a counter that never goes back:
 * a message keeps its seq for the life of the file, and messages dropped by a rollback leave a
 * gap rather than handing their seqs to later messages. Messages are replaced, never mutated, so a
 * snapshot handed out earlier never changes under its holder.
 */
export class MessageLog {
  private readonly list: AgentMessage[] = []
  private counter = 0
  /** Tool chips by call id, pointing at their seq. */
  private readonly tools = new Map<string, number>()

  /** The seq the next appended message will get. */
  get nextSeq(): number {
    return this.counter + 1
  }

  get messages(): readonly AgentMessage[] {
    return this.list
  }

  append(message: Omit<AgentMessage, 'seq'>): AgentMessage {
    this.counter += 1
    const stored: AgentMessage = { seq: this.counter, ...message }
    this.list.push(stored)
    if (stored.tool) this.tools.set(stored.tool.id, stored.seq)
    return stored
  }

  hasTool(callId: string): boolean {
    const seq = this.tools.get(callId)
    return seq !== undefined && this.indexOf(seq) !== -1
  }

  /** Replaces the tool of the chip with this call id; false when there is no such chip. */
  updateTool(callId: string, update: (tool: AgentTool) => AgentTool): boolean {
    const seq = this.tools.get(callId)
    if (seq === undefined) return false
    const index = this.indexOf(seq)
    const current = index === -1 ? undefined : this.list[index]
    if (!current?.tool) return false
    const next = update(current.tool)
    if (next !== current.tool) this.list[index] = { ...current, tool: next }
    return true
  }

  /** Applies `update` to every running chip from `fromSeq` on (a turn that ended under them). */
  updateRunningTools(fromSeq: number, update: (tool: AgentTool) => AgentTool): void {
    for (let index = this.lowerBound(fromSeq); index < this.list.length; index += 1) {
      const message = this.list[index]
      if (message?.tool?.status === 'running') this.list[index] = { ...message, tool: update(message.tool) }
    }
  }

  /** Drops every message with `seq >= fromSeq` (a rollback). Seqs are not reused. */
  dropFrom(fromSeq: number): void {
    const index = this.lowerBound(fromSeq)
    for (const dropped of this.list.splice(index)) {
      if (dropped.tool && this.tools.get(dropped.tool.id) === dropped.seq) this.tools.delete(dropped.tool.id)
    }
  }

  /** Messages with `seq >= fromSeq`, in order. */
  since(fromSeq: number): readonly AgentMessage[] {
    return this.list.slice(this.lowerBound(fromSeq))
  }

  private indexOf(seq: number): number {
    const index = this.lowerBound(seq)
    return this.list[index]?.seq === seq ? index : -1
  }

  /** First index whose seq is `>= seq` (the list is sorted by seq). */
  private lowerBound(seq: number): number {
    let low = 0
    let high = this.list.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if ((this.list[mid]?.seq ?? Infinity) < seq) low = mid + 1
      else high = mid
    }
    return low
  }
}
