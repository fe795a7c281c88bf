import { createHash, timingSafeEqual } from 'node:crypto'
import type { Authenticate } from '../../server/index.js'

/** The principal a request holding the token is: one operator, whose conversations are all of them. */
export const TOKEN_PRINCIPAL = 'token'

/**
 * `authenticate` for `chatrail serve --token`: a request is let in when it carries
 * `Authorization: Bearer <secret>`. Both sides are hashed first, so the comparison is constant-time
 * whatever the lengths (timingSafeEqual needs equal lengths, and a length check would leak one).
 * Every holder of the secret is one principal, `token`.
 */
export function bearerTokenAuth(secret: string): Authenticate {
  const expected = createHash('sha256').update(secret).digest()
  return (request) => {
    const header = request.headers.get('authorization') ?? ''
    const match = /^Bearer\s+(.+)$/i.exec(header)
    if (match === null) return null
    const given = createHash('sha256').update(match[1] as string).digest()
    return timingSafeEqual(given, expected) ? TOKEN_PRINCIPAL : null
  }
}
