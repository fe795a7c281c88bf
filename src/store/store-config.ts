import { configIssue, ChatrailConfigError } from '../conversation/config-error.js'
import { SCHEMA_PATTERN } from './sql/schema.js'

/** The schema a SQL store uses: default `public`; anything else must be a plain lowercase identifier (it is spliced into SQL text). */
export function schemaOf(store: string, schema: unknown): string {
  if (schema === undefined) return 'public'
  if (typeof schema === 'string' && SCHEMA_PATTERN.test(schema)) return schema
  throw new ChatrailConfigError([
    configIssue('invalid_schema', [store, 'schema'], `${store}: schema ${JSON.stringify(schema)} is not a plain lowercase SQL identifier.`, 'Use lowercase letters, digits and _ (starting with a letter or _), e.g. "chatrail".'),
  ])
}

/** A missing optional peer dependency, named with the install command. */
export function missingPeer(store: string, pkg: string, cause: unknown): ChatrailConfigError {
  const error = new ChatrailConfigError([
    configIssue('missing_peer_dependency', [store], `${store} needs the package "${pkg}", which is not installed.`, `npm install ${pkg}`),
  ])
  Object.defineProperty(error, 'cause', { value: cause })
  return error
}
