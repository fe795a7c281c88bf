import type { SkillDefinition } from '../contract/chat.js'
import type { ToolDefinition } from '../contract/tool.js'
import { describeThrown, ErrorCodes, SkillError } from './errors.js'

export type SkillActivation =
  | { ok: true; systemPrompt: string | undefined; tools: ToolDefinition[] }
  | { ok: false; error: SkillError }

/**
 * Composes the system prompt (`systemPrompt`, then one `--- name ---` block per skill, blank-line
 * separated) and collects the tools each skill's `onActivate` returns, in skill order.
 * Never rejects: a failing `onActivate` becomes `{ ok: false }`, and the turn that needs the
 * activation ends in `status: 'error'` (upstream rejected `send` and left the turn streaming).
 */
export async function activateSkills(
  skills: readonly SkillDefinition[] | undefined,
  systemPrompt: string | undefined,
): Promise<SkillActivation> {
  if (!skills || skills.length === 0) return { ok: true, systemPrompt, tools: [] }
  const blocks = skills.map((skill) => `--- ${skill.name} ---\n${skill.systemPrompt}`)
  const composed = [systemPrompt, ...blocks].filter((part): part is string => Boolean(part)).join('\n\n')
  const tools: ToolDefinition[] = []
  for (const skill of skills) {
    if (!skill.onActivate) continue
    try {
      const activated = await skill.onActivate()
      tools.push(...(activated?.tools ?? []))
    } catch (error) {
      return {
        ok: false,
        error: new SkillError({
          code: ErrorCodes.AK_SKILL_INVALID,
          message: `Skill "${skill.name}" failed to activate: ${describeThrown(error)}`,
          hint: `Fix skills[${skills.indexOf(skill)}].onActivate or remove the skill with updateConfig({ skills }).`,
          cause: error,
        }),
      }
    }
  }
  return { ok: true, systemPrompt: composed, tools }
}
