import type { Migration } from './schema.js'
import { notifySql } from './store-notifications.js'

/**
 * The SQL of a running turn's stream parts (the rules: ../turn-parts.ts). Migration 4 only adds
 * tables and a function, and changes nothing an instance of the previous version reads or writes:
 * such an instance keeps working on a migrated database (it records no parts, so its turns are not
 * resumable, and its `delete` leaves a conversation's records to the sweep).
 *
 * A turn's parts are stored one row per batch (`body`: the batch's parts joined by newlines, which
 * JSON text never contains raw), so a flush is one insert whatever its size.
 */

export const TURN_PARTS_MIGRATION: Migration = {
  version: 4,
  name: 'turn parts: a running turn’s stream parts, for resuming it from any instance',
  sql: (s) => `
-- One record per turn that stored parts. No foreign key to the conversation: a first turn has none yet.
CREATE TABLE ${s}.chatrail_turns (
  conversation_id text NOT NULL,
  turn_id text NOT NULL,
  token bigint NOT NULL,
  owner text,
  header text,
  next_seq integer NOT NULL,
  bytes bigint NOT NULL,
  finished boolean NOT NULL DEFAULT false,
  overflowed boolean NOT NULL DEFAULT false,
  updated_at bigint NOT NULL,
  PRIMARY KEY (conversation_id, turn_id)
);
CREATE INDEX chatrail_turns_updated ON ${s}.chatrail_turns (updated_at);

CREATE TABLE ${s}.chatrail_turn_parts (
  conversation_id text NOT NULL,
  turn_id text NOT NULL,
  seq integer NOT NULL,
  count integer NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (conversation_id, turn_id, seq),
  FOREIGN KEY (conversation_id, turn_id) REFERENCES ${s}.chatrail_turns (conversation_id, turn_id) ON DELETE CASCADE
);

CREATE FUNCTION ${s}.chatrail_turn_parts_append(
  p_id text, p_turn_id text, p_token bigint, p_seq integer, p_count integer, p_body text,
  p_finished boolean, p_owner text, p_header text, p_max_bytes bigint, p_now bigint, p_retention bigint
) RETURNS TABLE (status text, next_seq integer)
LANGUAGE plpgsql AS $fn$
DECLARE
  t ${s}.chatrail_turns%ROWTYPE;
  l ${s}.chatrail_leases%ROWTYPE;
  added bigint := coalesce(octet_length(p_body), 0);
BEGIN
  SELECT * INTO t FROM ${s}.chatrail_turns x WHERE x.conversation_id = p_id AND x.turn_id = p_turn_id FOR UPDATE;
  IF NOT FOUND THEN
    IF p_seq <> 0 THEN
      RETURN QUERY SELECT 'gone'::text, 0;
      RETURN;
    END IF;
    -- Creating the record needs the turn's current, unreleased lease.
    SELECT * INTO l FROM ${s}.chatrail_leases y WHERE y.conversation_id = p_id;
    IF NOT FOUND OR l.released OR l.token <> p_token OR l.turn_id <> p_turn_id THEN
      RETURN QUERY SELECT 'fenced'::text, 0;
      RETURN;
    END IF;
    -- Keep the tables bounded: records idle past the retention that are finished or hold no lease
    -- (their parts go with them, ON DELETE CASCADE). Driven by the updated_at index.
    DELETE FROM ${s}.chatrail_turns x WHERE x.updated_at < p_now - p_retention AND (x.finished OR NOT EXISTS (
      SELECT 1 FROM ${s}.chatrail_leases y WHERE y.conversation_id = x.conversation_id AND y.turn_id = x.turn_id
        AND y.token = x.token AND NOT y.released AND y.expires_at > p_now));
    INSERT INTO ${s}.chatrail_turns (conversation_id, turn_id, token, owner, header, next_seq, bytes, updated_at)
      VALUES (p_id, p_turn_id, p_token, p_owner, p_header, 0, 0, p_now)
      ON CONFLICT (conversation_id, turn_id) DO NOTHING;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'conflict'::text, (SELECT x.next_seq FROM ${s}.chatrail_turns x WHERE x.conversation_id = p_id AND x.turn_id = p_turn_id);
      RETURN;
    END IF;
    SELECT * INTO t FROM ${s}.chatrail_turns x WHERE x.conversation_id = p_id AND x.turn_id = p_turn_id;
  END IF;
  IF t.token <> p_token THEN
    RETURN QUERY SELECT 'fenced'::text, 0;
    RETURN;
  END IF;
  IF t.next_seq <> p_seq THEN
    RETURN QUERY SELECT 'conflict'::text, t.next_seq;
    RETURN;
  END IF;
  -- Past the cap the batch is refused whole and the turn marked; it takes its finished mark, never another part.
  IF p_count > 0 AND (t.overflowed OR t.bytes + added > p_max_bytes) THEN
    UPDATE ${s}.chatrail_turns x SET overflowed = true, finished = x.finished OR p_finished, updated_at = p_now
      WHERE x.conversation_id = p_id AND x.turn_id = p_turn_id;
    RETURN QUERY SELECT 'overflow'::text, t.next_seq;
    RETURN;
  END IF;
  IF p_count > 0 THEN
    INSERT INTO ${s}.chatrail_turn_parts (conversation_id, turn_id, seq, count, body) VALUES (p_id, p_turn_id, p_seq, p_count, p_body);
  END IF;
  UPDATE ${s}.chatrail_turns x SET next_seq = t.next_seq + p_count, bytes = t.bytes + added, finished = t.finished OR p_finished, updated_at = p_now
    WHERE x.conversation_id = p_id AND x.turn_id = p_turn_id;
  RETURN QUERY SELECT 'appended'::text, t.next_seq + p_count;
END
$fn$;
`,
}

/** The statements, for one schema (positional parameters, as in schema.ts). */
export function turnPartsStatements(s: string) {
  return {
    // A stored batch (or a finish past the cap) wakes the turn's resumed streams, once it commits.
    appendTurnParts: `SELECT status, next_seq, CASE WHEN status IN ('appended', 'overflow') THEN ${notifySql(s, 'turn-parts', '$1')} END AS woke
      FROM ${s}.chatrail_turn_parts_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    // One row whatever the conversation holds: its lease, the turn's record (the lease's turn unless
    // one is named) and the batches holding parts from $3 on, joined in order.
    readTurnParts: `SELECT l.turn_id AS lease_turn_id, l.token AS lease_token, (NOT l.released AND l.expires_at > $6) AS lease_held, l.owner AS lease_owner,
        t.turn_id, t.token, t.owner, CASE WHEN $5::boolean THEN t.header END AS header, t.next_seq, t.finished, t.overflowed, t.updated_at,
        b.first_seq, b.body
      FROM (SELECT $1::text AS id) k
      LEFT JOIN ${s}.chatrail_leases l ON l.conversation_id = k.id
      LEFT JOIN ${s}.chatrail_turns t ON t.conversation_id = k.id AND t.turn_id = coalesce($2::text, l.turn_id)
      LEFT JOIN LATERAL (SELECT min(p.seq) AS first_seq, string_agg(p.body, E'\\n' ORDER BY p.seq) AS body FROM ${s}.chatrail_turn_parts p
        WHERE $4::boolean AND p.conversation_id = t.conversation_id AND p.turn_id = t.turn_id AND p.seq + p.count > $3::integer) b ON true`,
  }
}
