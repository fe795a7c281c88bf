import { en } from 'zod/locales'
import type * as z from 'zod/mini'

/**
 * Parse options that give zod issues classic zod's English messages ("Invalid input: expected
 * string, received number"). `zod/mini` loads no locale, so without them every message would read
 * "Invalid input". The map applies to the parse it is passed to, never globally: the host app's
 * own zod configuration (`z.config`) stays untouched. Import `en` from `zod/locales` by name so
 * bundlers keep that one locale only.
 */
export const inEnglish: z.core.ParseContext<z.core.$ZodIssue> = Object.freeze({ error: en().localeError })
