import { describe, expect, it } from 'vitest'
import { bearerTokenAuth } from '../../src/cli/serve/token-auth.js'
import { loadServedDefinition } from '../../src/cli/serve.js'

const request = (authorization?: string): Request =>
  new Request('http://127.0.0.1/api/chat?id=x', authorization === undefined ? {} : { headers: { authorization } })

describe('chatrail serve --token', () => {
  it('lets in exactly the bearer secret', async () => {
    const authenticate = bearerTokenAuth('s3cret')
    expect(await authenticate(request('Bearer s3cret'))).toBe('token')
    expect(await authenticate(request('bearer s3cret'))).toBe('token')
    for (const header of [undefined, '', 'Bearer', 'Bearer s3cre', 'Bearer s3cret2', 'Basic s3cret', 's3cret']) {
      expect(await authenticate(request(header))).toBeNull()
    }
  })
})

describe('the served module', () => {
  it('takes the export named `definition` when there is no default export', async () => {
    const definition = await loadServedDefinition(new URL('./fixtures/named-definition.ts', import.meta.url).pathname)
    expect(definition.id).toBe('support-bot')
  })

  it('names the module when it exports no chat definition', async () => {
    await expect(loadServedDefinition(new URL('./fixtures/no-definition.ts', import.meta.url).pathname)).rejects.toMatchObject({
      code: 'DEFINITION_EXPORT_MISSING',
      message: expect.stringContaining('no-definition.ts exports no chat definition as its default export or as `definition`'),
    })
  })
})
