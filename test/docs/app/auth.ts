/** The stand-in for an app's session lookup (docs/server.md `./auth.js`): the signed-in user's id. */
export async function userIdFromSession(request: Request): Promise<string | undefined> {
  const cookie = request.headers.get('cookie') ?? ''
  return /(?:^|;\s*)user=([^;]+)/.exec(cookie)?.[1]
}
