-- Schema 3: the events table becomes a rowid table, so rows are stored in the
-- order they are appended, with the primary key (match_id, seq) as a separate
-- unique index. Why: with WITHOUT ROWID the rows were clustered by match, so a
-- group commit touching 1,000 live matches dirtied ~1,000 leaf pages (one per
-- match) and was bound by writing those pages to the WAL. In append order a
-- batch fills a few consecutive pages and only the small index entries are
-- scattered: group commit got ~2x faster. Reads of one match now go through
-- the index, which costs little because the hot pages are in the cache or mmap.
-- Columns, constraints and meaning are unchanged; every row is copied as it is.
-- An event whose match row is missing (only possible after hand edits with
-- foreign keys off) fails the foreign key check and the whole migration rolls
-- back: `PRAGMA foreign_key_check` in sqlite3 names such rows.

DROP VIEW timeline;

CREATE TABLE events_in_append_order (
  match_id       INTEGER NOT NULL REFERENCES matches (id),
  seq            INTEGER NOT NULL CHECK (seq >= 1),
  time           INTEGER NOT NULL,
  actor          TEXT NOT NULL,             -- '0'..'3' or 'server'
  command_id     TEXT,                      -- the client's id, for idempotent retries
  type           TEXT NOT NULL,             -- rules::command_type
  schema_version INTEGER NOT NULL,          -- of payload; older versions are upcast on read
  payload        TEXT NOT NULL,             -- rules::event_to_json
  state_hash     TEXT NOT NULL CHECK (length(state_hash) = 16),  -- rules::hash after apply, hex
  PRIMARY KEY (match_id, seq)
);

-- Copied in key order, which the old table's scan gives for free (no sort):
-- each match's old events stay together; new ones follow in append order.
INSERT INTO events_in_append_order
  (match_id, seq, time, actor, command_id, type, schema_version, payload, state_hash)
SELECT match_id, seq, time, actor, command_id, type, schema_version, payload, state_hash
FROM events
ORDER BY match_id, seq;

DROP TABLE events;  -- also drops events_by_command_id
ALTER TABLE events_in_append_order RENAME TO events;

CREATE UNIQUE INDEX events_by_command_id ON events (match_id, command_id)
  WHERE command_id IS NOT NULL;

CREATE VIEW timeline AS
SELECT
  match_id,
  seq,
  strftime('%Y-%m-%dT%H:%M:%fZ', time / 1000.0, 'unixepoch') AS time,
  actor,
  type,
  json_extract(payload, '$.command.color')  AS color,
  json_extract(payload, '$.command.island') AS island,
  json_extract(payload, '$.command.value')  AS value,
  json_extract(payload, '$.command.steps')  AS steps,
  json_extract(payload, '$.command.cloud')  AS cloud,
  json_extract(payload, '$.command.wizard') AS wizard,
  json_extract(payload, '$.drawn')          AS drawn,
  command_id,
  state_hash
FROM events;
