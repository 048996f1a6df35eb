-- Eryantis event store, schema 1. Times are unix milliseconds (INTEGER); the
-- views show them as ISO 8601 text for people using the sqlite3 shell.

CREATE TABLE matches (
  id                INTEGER PRIMARY KEY,
  created           INTEGER NOT NULL,
  options           TEXT NOT NULL CHECK (json_valid(options)),  -- {"players": 4, "mode": "expert"}
  rules_version     TEXT NOT NULL,                              -- the build that created the match
  status            TEXT NOT NULL
                    CHECK (status IN ('lobby', 'running', 'finished', 'abandoned', 'quarantined')),
  last_seq          INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0),  -- seq is dense: also the event count
  result            TEXT CHECK (result IS NULL OR json_valid(result)),
  quarantine_reason TEXT,
  updated           INTEGER NOT NULL
);
CREATE INDEX matches_by_status ON matches (status);

CREATE TABLE seats (
  match_id          INTEGER NOT NULL REFERENCES matches (id),
  seat              INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
  nickname          TEXT NOT NULL,
  resume_token_hash TEXT NOT NULL,
  tower_color       TEXT CHECK (tower_color IS NULL OR tower_color IN ('black', 'white', 'grey')),
  wizard            INTEGER CHECK (wizard IS NULL OR wizard BETWEEN 0 AND 3),
  PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

-- The log. Rows are only ever inserted: never updated, never deleted.
-- WITHOUT ROWID keeps each match's events together on disk.
CREATE TABLE events (
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
) WITHOUT ROWID;
CREATE UNIQUE INDEX events_by_command_id ON events (match_id, command_id)
  WHERE command_id IS NOT NULL;

-- rules::state_to_binary of the state after event `seq`. Never rewritten or
-- deleted; readers skip snapshots of another state version or that fail to decode.
CREATE TABLE snapshots (
  match_id INTEGER NOT NULL REFERENCES matches (id),
  seq      INTEGER NOT NULL CHECK (seq >= 1),
  version  INTEGER NOT NULL,
  state    BLOB NOT NULL,
  PRIMARY KEY (match_id, seq)
);

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

CREATE VIEW match_summary AS
SELECT
  id,
  status,
  json_extract(options, '$.players') AS players,
  json_extract(options, '$.mode')    AS mode,
  last_seq                           AS events,
  strftime('%Y-%m-%dT%H:%M:%fZ', created / 1000.0, 'unixepoch') AS created,
  strftime('%Y-%m-%dT%H:%M:%fZ', updated / 1000.0, 'unixepoch') AS last_activity,
  result,
  quarantine_reason
FROM matches;
