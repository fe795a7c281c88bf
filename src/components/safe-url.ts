/**
 * A URL a component may link to or download from: relative (`/docs`, `./a`, `a/b`, `#x`, `?q`) or
 * an absolute http(s) URL without credentials. Refused: other schemes (`javascript:`, `data:`),
 * protocol-relative `//host` (and `\\host`, which browsers read the same way), `user:pass@`, and
 * control characters or whitespace that browsers strip before parsing.
 */
export function isSafeUrl(value: string): boolean {
  if (value === '' || value.length > 2048) return false
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u0020\u007f]/.test(value)) return false
  if (/^[\\/]{2}/.test(value) || value.startsWith('/\\')) return false
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value)
  if (!scheme) return true
  if (!/^https?$/i.test(scheme[1] ?? '')) return false
  try {
    const url = new URL(value)
    return url.username === '' && url.password === '' && url.hostname !== ''
  } catch {
    return false
  }
}
