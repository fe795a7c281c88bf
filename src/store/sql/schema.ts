/**
 * The one schema and the one set of statements both SQL stores run (PGlite is Postgres compiled to
 * WASM, so they speak the same dialect). Every write is a single statement: `chatrail_append` is a
 * PL/pgSQL function that checks idempotency, the version (CAS), the definition and the lease
 * (fencing), truncates, inserts and bumps the version atomically, so one turn costs one round trip
 * to commit and nothing is ever half-written. Times are milliseconds from the store's clock.
 *
 * Migrations are versioned here and applied in order, once, inside a transaction holding a
 * Postgres advisory lock, so instances starting together never race (see `migrate.ts`). Never edit
 * a shipped migration: append a new one.
 */

/** A schema name goes into SQL text (it cannot be a parameter): lowercase identifiers only. */
import { TURN_PARTS_MIGRATION, turnPartsStatements } from './turn-parts-sql.js'
import { CONFIRMATIONS_MIGRATION, confirmationStatements } from './confirmations-sql.js'
import { notifySql } from './store-notifications.js'

export const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/

export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: (schema: string) => string
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations, messages, leases, chatrail_append',
    sql: (s) => `
CREATE TABLE ${s}.chatrail_conversations (
  id text PRIMARY KEY,
  definition_id text NOT NULL,
  definition_revision integer NOT NULL,
  version bigint NOT NULL,
  message_count integer NOT NULL,
  next_seq bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX chatrail_conversations_updated ON ${s}.chatrail_conversations (updated_at, id);
CREATE INDEX chatrail_conversations_definition ON ${s}.chatrail_conversations (definition_id, updated_at, id);

-- One row per message; body is the message's JSON text, kept verbatim (read back byte-identical).
CREATE TABLE ${s}.chatrail_messages (
  conversation_id text NOT NULL REFERENCES ${s}.chatrail_conversations (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  message_id text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (conversation_id, seq),
  UNIQUE (conversation_id, message_id)
);

-- One lease per conversation. The token only grows, so a stale holder is recognised; the row may
-- exist before the conversation does (the first turn claims before it writes).
CREATE TABLE ${s}.chatrail_leases (
  conversation_id text PRIMARY KEY,
  turn_id text NOT NULL,
  token bigint NOT NULL,
  expires_at bigint NOT NULL,
  released boolean NOT NULL DEFAULT false,
  outcome text
);

CREATE FUNCTION ${s}.chatrail_append(
  p_id text, p_expected bigint, p_definition_id text, p_revision integer,
  p_ids text, p_bodies text, p_truncate boolean, p_truncate_after text,
  p_turn_id text, p_token bigint, p_release text, p_now bigint
) RETURNS TABLE (status text, version bigint, detail text, outcome text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c ${s}.chatrail_conversations%ROWTYPE;
  l ${s}.chatrail_leases%ROWTYPE;
  first_id text := p_ids::json->>0;
  dup_seq bigint;
  cut_seq bigint;
  added integer := json_array_length(p_ids::json);
BEGIN
  SELECT * INTO c FROM ${s}.chatrail_conversations WHERE id = p_id FOR UPDATE;
  -- Idempotency before CAS: a retried turn whose first message is stored gets the stored outcome.
  IF FOUND AND NOT p_truncate AND first_id IS NOT NULL THEN
    SELECT seq INTO dup_seq FROM ${s}.chatrail_messages WHERE conversation_id = p_id AND message_id = first_id;
    IF FOUND THEN
      -- The stored outcome, read in this statement: a writer committing right after cannot change it.
      RETURN QUERY SELECT 'duplicate'::text, c.version, dup_seq::text,
        (SELECT json_agg(json_build_array(m.seq, m.message_id, m.body) ORDER BY m.seq)::text
           FROM ${s}.chatrail_messages m WHERE m.conversation_id = p_id AND m.seq >= dup_seq);
      RETURN;
    END IF;
  END IF;
  IF coalesce(c.version, 0) <> p_expected THEN
    RETURN QUERY SELECT 'conflict'::text, coalesce(c.version, 0::bigint), NULL::text, NULL::text;
    RETURN;
  END IF;
  IF c.id IS NOT NULL AND c.definition_id <> p_definition_id THEN
    RETURN QUERY SELECT 'definition'::text, c.version, c.definition_id, NULL::text;
    RETURN;
  END IF;
  SELECT * INTO l FROM ${s}.chatrail_leases WHERE conversation_id = p_id FOR UPDATE;
  IF p_token IS NOT NULL THEN
    IF l.conversation_id IS NULL OR l.released OR l.token <> p_token OR l.turn_id <> p_turn_id THEN
      RETURN QUERY SELECT 'fenced'::text, coalesce(c.version, 0::bigint), l.token::text, NULL::text;
      RETURN;
    END IF;
  ELSIF l.conversation_id IS NOT NULL AND NOT l.released AND l.expires_at > p_now THEN
    RETURN QUERY SELECT 'busy'::text, coalesce(c.version, 0::bigint), l.token::text, NULL::text;
    RETURN;
  END IF;
  IF c.id IS NULL THEN
    INSERT INTO ${s}.chatrail_conversations VALUES (p_id, p_definition_id, p_revision, 0, 0, 1, p_now, p_now)
      ON CONFLICT (id) DO NOTHING;
    IF NOT FOUND THEN
      -- Another writer created it between our read and our insert: that is a lost CAS race.
      RETURN QUERY SELECT 'conflict'::text, (SELECT x.version FROM ${s}.chatrail_conversations x WHERE x.id = p_id), NULL::text, NULL::text;
      RETURN;
    END IF;
    SELECT * INTO c FROM ${s}.chatrail_conversations WHERE id = p_id FOR UPDATE;
  END IF;
  IF p_truncate THEN
    IF p_truncate_after IS NULL THEN
      cut_seq := 0;
    ELSE
      SELECT seq INTO cut_seq FROM ${s}.chatrail_messages WHERE conversation_id = p_id AND message_id = p_truncate_after;
      IF NOT FOUND THEN
        RETURN QUERY SELECT 'conflict'::text, c.version, 'truncate'::text, NULL::text;
        RETURN;
      END IF;
    END IF;
    DELETE FROM ${s}.chatrail_messages WHERE conversation_id = p_id AND seq > cut_seq;
  -- Driven by the new ids (a few), one index probe each: never a scan of the conversation.
  ELSIF EXISTS (SELECT 1 FROM json_array_elements_text(p_ids::json) AS x (id)
                WHERE EXISTS (SELECT 1 FROM ${s}.chatrail_messages m WHERE m.conversation_id = p_id AND m.message_id = x.id)) THEN
    RETURN QUERY SELECT 'conflict'::text, c.version, 'duplicate-id'::text, NULL::text;
    RETURN;
  END IF;
  INSERT INTO ${s}.chatrail_messages (conversation_id, seq, message_id, body)
    SELECT p_id, c.next_seq + i.ord - 1, i.id, b.body
    FROM json_array_elements_text(p_ids::json) WITH ORDINALITY AS i (id, ord)
    JOIN json_array_elements_text(p_bodies::json) WITH ORDINALITY AS b (body, ord) ON b.ord = i.ord;
  UPDATE ${s}.chatrail_conversations SET
    version = c.version + 1,
    next_seq = c.next_seq + added,
    message_count = (CASE WHEN p_truncate THEN (SELECT count(*) FROM ${s}.chatrail_messages WHERE conversation_id = p_id) ELSE c.message_count + added END),
    definition_revision = p_revision,
    updated_at = p_now
  WHERE id = p_id;
  IF p_release IS NOT NULL THEN
    UPDATE ${s}.chatrail_leases SET released = true, outcome = p_release WHERE conversation_id = p_id;
  END IF;
  RETURN QUERY SELECT 'appended'::text, c.version + 1, NULL::text, NULL::text;
END
$fn$;
`,
  },
  {
    version: 2,
    name: 'conversation owner, turn signals (stop, dialog answer)',
    // Existing conversations get no owner: only an ownerless caller (a handler with
    // `authenticate: 'none'`) may use them; an authenticated principal gets 404, like any other
    // conversation that is not theirs (docs/server.md, owners).
    sql: (s) => `
ALTER TABLE ${s}.chatrail_conversations ADD COLUMN owner text;
CREATE INDEX chatrail_conversations_owner ON ${s}.chatrail_conversations (owner, updated_at, id);
-- Signals for the turn holding the lease, left by any instance and polled by the holder.
-- The lease's owner: who may signal a turn (a first turn has no conversation row to check yet).
ALTER TABLE ${s}.chatrail_leases ADD COLUMN stop_requested boolean NOT NULL DEFAULT false, ADD COLUMN dialog_answer text, ADD COLUMN owner text;
DROP FUNCTION ${s}.chatrail_append(text, bigint, text, integer, text, text, boolean, text, text, bigint, text, bigint);
CREATE FUNCTION ${s}.chatrail_append(
  p_id text, p_expected bigint, p_definition_id text, p_revision integer,
  p_ids text, p_bodies text, p_truncate boolean, p_truncate_after text,
  p_turn_id text, p_token bigint, p_release text, p_now bigint, p_owner text
) RETURNS TABLE (status text, version bigint, detail text, outcome text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c ${s}.chatrail_conversations%ROWTYPE;
  l ${s}.chatrail_leases%ROWTYPE;
  first_id text := p_ids::json->>0;
  dup_seq bigint;
  cut_seq bigint;
  added integer := json_array_length(p_ids::json);
BEGIN
  SELECT * INTO c FROM ${s}.chatrail_conversations WHERE id = p_id FOR UPDATE;
  -- The owner is set by the write that creates the conversation and never changes; checked first,
  -- so another principal's retry can't read this conversation's stored outcome.
  IF c.id IS NOT NULL AND p_owner IS NOT NULL AND c.owner IS DISTINCT FROM p_owner THEN
    RETURN QUERY SELECT 'owner'::text, c.version, NULL::text, NULL::text;
    RETURN;
  END IF;
  -- Idempotency before CAS: a retried turn whose first message is stored gets the stored outcome.
  IF FOUND AND NOT p_truncate AND first_id IS NOT NULL THEN
    SELECT seq INTO dup_seq FROM ${s}.chatrail_messages WHERE conversation_id = p_id AND message_id = first_id;
    IF FOUND THEN
      -- The stored outcome, read in this statement: a writer committing right after cannot change it.
      RETURN QUERY SELECT 'duplicate'::text, c.version, dup_seq::text,
        (SELECT json_agg(json_build_array(m.seq, m.message_id, m.body) ORDER BY m.seq)::text
           FROM ${s}.chatrail_messages m WHERE m.conversation_id = p_id AND m.seq >= dup_seq);
      RETURN;
    END IF;
  END IF;
  IF coalesce(c.version, 0) <> p_expected THEN
    RETURN QUERY SELECT 'conflict'::text, coalesce(c.version, 0::bigint), NULL::text, NULL::text;
    RETURN;
  END IF;
  IF c.id IS NOT NULL AND c.definition_id <> p_definition_id THEN
    RETURN QUERY SELECT 'definition'::text, c.version, c.definition_id, NULL::text;
    RETURN;
  END IF;
  SELECT * INTO l FROM ${s}.chatrail_leases WHERE conversation_id = p_id FOR UPDATE;
  IF p_token IS NOT NULL THEN
    IF l.conversation_id IS NULL OR l.released OR l.token <> p_token OR l.turn_id <> p_turn_id THEN
      RETURN QUERY SELECT 'fenced'::text, coalesce(c.version, 0::bigint), l.token::text, NULL::text;
      RETURN;
    END IF;
  ELSIF l.conversation_id IS NOT NULL AND NOT l.released AND l.expires_at > p_now THEN
    RETURN QUERY SELECT 'busy'::text, coalesce(c.version, 0::bigint), l.token::text, NULL::text;
    RETURN;
  END IF;
  IF c.id IS NULL THEN
    INSERT INTO ${s}.chatrail_conversations (id, definition_id, definition_revision, version, message_count, next_seq, created_at, updated_at, owner)
      VALUES (p_id, p_definition_id, p_revision, 0, 0, 1, p_now, p_now, p_owner)
      ON CONFLICT (id) DO NOTHING;
    IF NOT FOUND THEN
      -- Another writer created it between our read and our insert: that is a lost CAS race.
      RETURN QUERY SELECT 'conflict'::text, (SELECT x.version FROM ${s}.chatrail_conversations x WHERE x.id = p_id), NULL::text, NULL::text;
      RETURN;
    END IF;
    SELECT * INTO c FROM ${s}.chatrail_conversations WHERE id = p_id FOR UPDATE;
  END IF;
  IF p_truncate THEN
    IF p_truncate_after IS NULL THEN
      cut_seq := 0;
    ELSE
      SELECT seq INTO cut_seq FROM ${s}.chatrail_messages WHERE conversation_id = p_id AND message_id = p_truncate_after;
      IF NOT FOUND THEN
        RETURN QUERY SELECT 'conflict'::text, c.version, 'truncate'::text, NULL::text;
        RETURN;
      END IF;
    END IF;
    DELETE FROM ${s}.chatrail_messages WHERE conversation_id = p_id AND seq > cut_seq;
  -- Driven by the new ids (a few), one index probe each: never a scan of the conversation.
  ELSIF EXISTS (SELECT 1 FROM json_array_elements_text(p_ids::json) AS x (id)
                WHERE EXISTS (SELECT 1 FROM ${s}.chatrail_messages m WHERE m.conversation_id = p_id AND m.message_id = x.id)) THEN
    RETURN QUERY SELECT 'conflict'::text, c.version, 'duplicate-id'::text, NULL::text;
    RETURN;
  END IF;
  INSERT INTO ${s}.chatrail_messages (conversation_id, seq, message_id, body)
    SELECT p_id, c.next_seq + i.ord - 1, i.id, b.body
    FROM json_array_elements_text(p_ids::json) WITH ORDINALITY AS i (id, ord)
    JOIN json_array_elements_text(p_bodies::json) WITH ORDINALITY AS b (body, ord) ON b.ord = i.ord;
  UPDATE ${s}.chatrail_conversations SET
    version = c.version + 1,
    next_seq = c.next_seq + added,
    message_count = (CASE WHEN p_truncate THEN (SELECT count(*) FROM ${s}.chatrail_messages WHERE conversation_id = p_id) ELSE c.message_count + added END),
    definition_revision = p_revision,
    updated_at = p_now
  WHERE id = p_id;
  IF p_release IS NOT NULL THEN
    UPDATE ${s}.chatrail_leases SET released = true, outcome = p_release WHERE conversation_id = p_id;
  END IF;
  RETURN QUERY SELECT 'appended'::text, c.version + 1, NULL::text, NULL::text;
END
$fn$;
`,
  },
  {
    version: 3,
    name: 'chatrail_claim: the lease and the conversation version it guards',
    // A function, not one statement with a CTE: every statement of a statement shares one snapshot,
    // so a claim that waited for the previous holder's commit-and-release would report the version
    // from before that commit. A (volatile) function's second statement takes a new snapshot, which
    // holds every write committed before the lease was taken; later writes need this lease.
    sql: (s) => `
CREATE FUNCTION ${s}.chatrail_claim(p_id text, p_turn_id text, p_expires bigint, p_now bigint, p_owner text)
RETURNS TABLE (lease_token bigint, conversation_version bigint, conversation_revision integer, conversation_updated_at bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  taken bigint;
BEGIN
  -- Vercel state-pg's pattern: take the row when it is free or expired, in one statement.
  INSERT INTO ${s}.chatrail_leases AS l (conversation_id, turn_id, token, expires_at, released, owner) VALUES (p_id, p_turn_id, 1, p_expires, false, p_owner)
    ON CONFLICT (conversation_id) DO UPDATE SET turn_id = excluded.turn_id, token = l.token + 1, expires_at = excluded.expires_at, released = false, outcome = NULL,
      stop_requested = false, dialog_answer = NULL, owner = excluded.owner
    WHERE l.released OR l.expires_at <= p_now
    RETURNING l.token INTO taken;
  IF taken IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY SELECT taken, coalesce(c.version, 0::bigint), c.definition_revision, c.updated_at
    FROM (SELECT p_id AS id) k LEFT JOIN ${s}.chatrail_conversations c ON c.id = k.id;
END
$fn$;
`,
  },
  TURN_PARTS_MIGRATION,
  CONFIRMATIONS_MIGRATION,
]

/** A page of conversations in either order, by keyset: $1 definition, $2 updated before, $3/$4 the cursor, $5 limit, $6 owner. */
function listStatement(s: string, order: 'oldest' | 'newest'): string {
  const [after, direction] = order === 'oldest' ? ['>', ''] : ['<', ' DESC']
  return `SELECT id, definition_id, definition_revision, owner, version, message_count, created_at, updated_at FROM ${s}.chatrail_conversations
      WHERE ($1::text IS NULL OR definition_id = $1)
        AND ($2::bigint IS NULL OR updated_at < $2)
        AND ($3::bigint IS NULL OR (updated_at, id) ${after} ($3, $4::text))
        AND ($6::text IS NULL OR owner = $6)
      ORDER BY updated_at${direction}, id${direction} LIMIT $5`
}

/** The statements, for one schema. Parameters are positional ($1…), identical for both drivers. */
export function statements(s: string) {
  return {
    load: `SELECT c.definition_id, c.definition_revision, c.owner, c.version, c.created_at, c.updated_at, m.seq, m.message_id, m.body
      FROM ${s}.chatrail_conversations c LEFT JOIN ${s}.chatrail_messages m ON m.conversation_id = c.id
      WHERE c.id = $1 ORDER BY m.seq`,
    append: `SELECT status, version, detail, outcome FROM ${s}.chatrail_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    // No row: the lease is held (then `holder` says by whom).
    claim: `SELECT lease_token, conversation_version, conversation_revision, conversation_updated_at FROM ${s}.chatrail_claim($1, $2, $3, $4, $5)`,
    holder: `SELECT turn_id, expires_at FROM ${s}.chatrail_leases WHERE conversation_id = $1`,
    renew: `UPDATE ${s}.chatrail_leases SET expires_at = $3 WHERE conversation_id = $1 AND token = $2 AND NOT released RETURNING token`,
    currentToken: `SELECT token FROM ${s}.chatrail_leases WHERE conversation_id = $1`,
    release: `UPDATE ${s}.chatrail_leases SET released = true, outcome = $3 WHERE conversation_id = $1 AND token = $2 AND NOT released RETURNING token`,
    // The holder is woken by a notification sent only if this statement signalled and commits.
    signal: `WITH signalled AS (UPDATE ${s}.chatrail_leases SET stop_requested = stop_requested OR $2, dialog_answer = coalesce($3, dialog_answer)
      WHERE conversation_id = $1 AND NOT released AND expires_at > $4 AND ($5::text IS NULL OR owner = $5) RETURNING token)
      SELECT token, ${notifySql(s, 'signal', '$1')} AS woke FROM signalled`,
    // The poll: a read, plus a write only when a dialog answer is waiting (handed out once).
    takeSignals: `WITH old AS (SELECT conversation_id, stop_requested, dialog_answer FROM ${s}.chatrail_leases
        WHERE conversation_id = $1 AND token = $2 AND NOT released FOR UPDATE),
      taken AS (UPDATE ${s}.chatrail_leases l SET dialog_answer = NULL FROM old
        WHERE l.conversation_id = old.conversation_id AND old.dialog_answer IS NOT NULL RETURNING l.token)
      SELECT stop_requested, dialog_answer, (SELECT count(*) FROM taken) AS taken FROM old`,
    delete: `WITH gone AS (DELETE FROM ${s}.chatrail_leases WHERE conversation_id = $1),
      turns AS (DELETE FROM ${s}.chatrail_turns WHERE conversation_id = $1),
      confirmations AS (DELETE FROM ${s}.chatrail_confirmations WHERE session_id = $1)
      DELETE FROM ${s}.chatrail_conversations WHERE id = $1 RETURNING id`,
    list: listStatement(s, 'oldest'),
    // the same indexes (updated_at, id), (definition_id, …), (owner, …) scanned backwards: no index of its own
    listNewest: listStatement(s, 'newest'),
    // A range of the log and where it sits, in one statement (one snapshot): the newest $2 messages
    // (NULL: all) before message $3 (NULL: the end), by the primary key (conversation_id, seq)
    // scanned backwards; `end_at` is the range's end position (a count only when paging back).
    loadRange: `WITH c AS (SELECT definition_id, definition_revision, owner, version, message_count, created_at, updated_at FROM ${s}.chatrail_conversations WHERE id = $1),
      b AS (SELECT seq FROM ${s}.chatrail_messages WHERE conversation_id = $1 AND message_id = $3::text),
      m AS (SELECT seq, message_id, body FROM ${s}.chatrail_messages
        WHERE conversation_id = $1 AND ($3::text IS NULL OR seq < (SELECT seq FROM b)) ORDER BY seq DESC LIMIT $2::bigint)
      SELECT c.definition_id, c.definition_revision, c.owner, c.version, c.message_count, c.created_at, c.updated_at,
        ($3::text IS NULL OR EXISTS (SELECT 1 FROM b)) AS before_found,
        (CASE WHEN $3::text IS NULL THEN c.message_count
          ELSE (SELECT count(*) FROM ${s}.chatrail_messages x WHERE x.conversation_id = $1 AND x.seq < (SELECT seq FROM b)) END) AS end_at,
        m.seq, m.message_id, m.body
      FROM c LEFT JOIN m ON true ORDER BY m.seq`,
    // Whole logs for loadDecisions, a row per conversation: the header and the bodies joined into one JSON
    // array text in the database (no JSON is parsed there: measured on PGlite, selecting the record
    // paths with jsonb costs 3-10x shipping the bodies, and a row per message costs more in the
    // driver than the bodies' text); sql-store.ts parses it once and keeps `decisionViewOf` of each.
    // $1: the ids as a JSON array text.
    loadDecisions: `SELECT c.id, c.definition_id, c.definition_revision, c.owner, c.version, c.created_at, c.updated_at,
        (SELECT '[' || string_agg(m.body, ',' ORDER BY m.seq) || ']' FROM ${s}.chatrail_messages m WHERE m.conversation_id = c.id) AS bodies
      FROM ${s}.chatrail_conversations c WHERE c.id IN (SELECT json_array_elements_text($1::json))`,
    expire: `WITH gone AS (
        DELETE FROM ${s}.chatrail_conversations c WHERE c.updated_at < $1
          AND NOT EXISTS (SELECT 1 FROM ${s}.chatrail_leases l WHERE l.conversation_id = c.id AND NOT l.released AND l.expires_at > $2)
        RETURNING c.id),
      leases AS (DELETE FROM ${s}.chatrail_leases WHERE conversation_id IN (SELECT id FROM gone)),
      confirmations AS (DELETE FROM ${s}.chatrail_confirmations WHERE session_id IN (SELECT id FROM gone)),
      -- the expired conversations' turn parts, and idle ones past the retention ($3; see turn-parts-sql.ts)
      turns AS (DELETE FROM ${s}.chatrail_turns x WHERE x.conversation_id IN (SELECT id FROM gone)
        OR (x.updated_at < $2 - $3 AND (x.finished OR NOT EXISTS (SELECT 1 FROM ${s}.chatrail_leases y WHERE y.conversation_id = x.conversation_id
          AND y.turn_id = x.turn_id AND y.token = x.token AND NOT y.released AND y.expires_at > $2))))
      SELECT count(*)::integer AS n FROM gone`,
    ...turnPartsStatements(s),
    ...confirmationStatements(s),
  }
}

export type Statements = ReturnType<typeof statements>
