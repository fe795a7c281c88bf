/**
 * An object usable before the one it stands for has loaded (a module behind `import()`): each
 * method named in `later` (space-separated) waits for `load()` and calls the loaded object's; `now`
 * holds the members that answer before it loads. One factory for every such proxy (session
 * actions, the persisted ledger): a proxy written per method cost the session's chunk more bytes
 * than the code it defers.
 */
export function lazyObject<T extends object>(load: () => Promise<T>, later: string, now: Partial<T>): T {
  const object: Record<string, unknown> = now
  for (const name of later.split(' ')) object[name] = async (...args: unknown[]) => ((await load())[name as keyof T] as (...values: unknown[]) => unknown)(...args)
  return object as T
}
