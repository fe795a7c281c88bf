/**
 * The environment of an agent CLI: this process's environment with the adapter's overrides on top;
 * an override of `undefined` removes the variable. Pure (returns a new object).
 */
export function childEnv(overrides: Record<string, string | undefined> | undefined, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base }
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}
