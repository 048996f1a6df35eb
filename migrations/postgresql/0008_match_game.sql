-- Schema 8 (as migrations/0008_match_game.sql): each match records the game it
-- plays and the version of that game's rules it was created with; every match
-- stored before was an Eriantys match of rules version 1. A node serves (adopts,
-- lists) a match only when its catalogue has that game and reads that version.
ALTER TABLE matches ADD COLUMN game text NOT NULL DEFAULT 'eriantys'
  CHECK (length(game) BETWEEN 1 AND 64);
ALTER TABLE matches ADD COLUMN game_version integer NOT NULL DEFAULT 1
  CHECK (game_version >= 1);

CREATE OR REPLACE VIEW match_summary AS
SELECT
  id,
  status,
  (options::jsonb ->> 'players')::integer AS players,
  options::jsonb ->> 'mode'               AS mode,
  last_seq                                AS events,
  to_char(to_timestamp(created / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
  to_char(to_timestamp(updated / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_activity,
  result,
  quarantine_reason,
  game,
  game_version
FROM matches;
