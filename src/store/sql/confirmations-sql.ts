import type { Migration } from './schema.js'

/**
 * The SQL of action confirmation records (src/conversation/action-confirmation.ts). Migration 5
 * only adds a table: an instance of the previous version keeps working on a migrated database (it
 * never reads or writes confirmations). A record is one row; `body` is its JSON, the columns beside
 * it are what the statements compare and filter on. Every write is one statement: an insert that
 * loses to an existing token, or an update guarded by the revision the writer read
 * (compare-and-swap), so of two instances approving one token at once exactly one row update wins.
 */

export const CONFIRMATIONS_MIGRATION: Migration = {
  version: 5,
  name: 'action confirmations: one record per token, compare-and-swap on its revision',
  sql: (s) => `
CREATE TABLE ${s}.chatrail_confirmations (
  token text PRIMARY KEY,
  session_id text NOT NULL,
  revision bigint NOT NULL,
  status text NOT NULL,
  created_at bigint NOT NULL,
  body text NOT NULL
);
CREATE INDEX chatrail_confirmations_session ON ${s}.chatrail_confirmations (session_id, created_at, token);
`,
}

/** The statements, for one schema (positional parameters, as in schema.ts). */
export function confirmationStatements(s: string) {
  return {
    insertConfirmation: `INSERT INTO ${s}.chatrail_confirmations (token, session_id, revision, status, created_at, body) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (token) DO NOTHING RETURNING token`,
    // the session is compared too: a record never moves to another session, whatever a caller writes
    updateConfirmation: `UPDATE ${s}.chatrail_confirmations SET revision = $3, status = $4, body = $6
      WHERE token = $1 AND session_id = $2 AND revision = $5 RETURNING token`,
    loadConfirmation: `SELECT body FROM ${s}.chatrail_confirmations WHERE token = $1`,
    listConfirmations: `SELECT body FROM ${s}.chatrail_confirmations WHERE session_id = $1 ORDER BY created_at, token LIMIT $2`,
    deleteConfirmations: `DELETE FROM ${s}.chatrail_confirmations WHERE session_id = $1`,
  }
}
