-- Eryantis event store on PostgreSQL, schema 1: the same tables, columns and
-- meaning as migrations/0001_initial.sql (SQLite); docs/cluster.md says why a
-- second backend. Times are unix milliseconds (bigint); the views show them as
-- ISO 8601 text for people using psql. JSON columns stay text so that a payload
-- is read back byte for byte (jsonb would reorder its keys).

CREATE TABLE matches (
  id                bigint PRIMARY KEY,
  created           bigint NOT NULL,
  options           text NOT NULL CHECK (options::jsonb IS NOT NULL),  -- {"players":4,"mode":"expert"}
  rules_version     text NOT NULL,                                      -- the build that created the match
  status            text NOT NULL
                    CHECK (status IN ('lobby', 'running', 'finished', 'abandoned', 'quarantined')),
  last_seq          bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),  -- seq is dense: also the event count
  result            text CHECK (result IS NULL OR result::jsonb IS NOT NULL),
  quarantine_reason text,
  updated           bigint NOT NULL
);
CREATE INDEX matches_by_status ON matches (status);

CREATE TABLE seats (
  match_id          bigint NOT NULL REFERENCES matches (id),
  seat              integer NOT NULL CHECK (seat BETWEEN 0 AND 3),
  nickname          text NOT NULL,
  resume_token_hash text NOT NULL,
  tower_color       text CHECK (tower_color IS NULL OR tower_color IN ('black', 'white', 'grey')),
  wizard            integer CHECK (wizard IS NULL OR wizard BETWEEN 0 AND 3),
  PRIMARY KEY (match_id, seat)
);

-- The log. Rows are only ever inserted: never updated, never deleted. A heap
-- table stores them in append order already (what SQLite's migration 3 did).
CREATE TABLE events (
  match_id       bigint NOT NULL REFERENCES matches (id),
  seq            bigint NOT NULL CHECK (seq >= 1),
  time           bigint NOT NULL,
  actor          text NOT NULL,             -- '0'..'3' or 'server'
  command_id     text,                      -- the client's id, for idempotent retries
  type           text NOT NULL,             -- rules::command_type
  schema_version integer NOT NULL,          -- of payload; older versions are upcast on read
  payload        text NOT NULL,             -- rules::event_to_json
  state_hash     text NOT NULL CHECK (length(state_hash) = 16),  -- rules::hash after apply, hex
  PRIMARY KEY (match_id, seq)
);
CREATE UNIQUE INDEX events_by_command_id ON events (match_id, command_id)
  WHERE command_id IS NOT NULL;

-- rules::state_to_binary of the state after event `seq`. Never rewritten or
-- deleted; readers skip snapshots of another state version or that fail to decode.
CREATE TABLE snapshots (
  match_id bigint NOT NULL REFERENCES matches (id),
  seq      bigint NOT NULL CHECK (seq >= 1),
  version  integer NOT NULL,
  state    bytea NOT NULL,
  PRIMARY KEY (match_id, seq)
);

-- Ownership of a match in a cluster (docs/cluster.md): the node serving it, an
-- epoch that grows by one at every take-over, and the expiry (the database's
-- clock, never a node's). A write that carries a fence commits only while its
-- row still matches. No foreign key: a node takes the lease of a match it is
-- about to create.
CREATE TABLE leases (
  match_id   bigint PRIMARY KEY,
  node       text NOT NULL,
  epoch      bigint NOT NULL CHECK (epoch >= 1),
  expires_at timestamptz NOT NULL
);

CREATE VIEW timeline AS
SELECT
  match_id,
  seq,
  to_char(to_timestamp(time / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time,
  actor,
  type,
  payload::jsonb #>> '{command,color}'  AS color,
  payload::jsonb #>> '{command,island}' AS island,
  payload::jsonb #>> '{command,value}'  AS value,
  payload::jsonb #>> '{command,steps}'  AS steps,
  payload::jsonb #>> '{command,cloud}'  AS cloud,
  payload::jsonb #>> '{command,wizard}' AS wizard,
  payload::jsonb #>> '{drawn}'          AS drawn,
  command_id,
  state_hash
FROM events;

CREATE VIEW match_summary AS
SELECT
  id,
  status,
  (options::jsonb ->> 'players')::integer AS players,
  options::jsonb ->> 'mode'               AS mode,
  last_seq                                AS events,
  to_char(to_timestamp(created / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
  to_char(to_timestamp(updated / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_activity,
  result,
  quarantine_reason
FROM matches;
