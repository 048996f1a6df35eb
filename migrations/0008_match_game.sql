-- Schema 8 (docs/games.md): each match records the game it plays and the version
-- of that game's rules it was created with. Every match stored before was an
-- Eriantys match of rules version 1 (store::kFirstGame). A build serves a stored
-- match only when its catalogue has that game and the game reads that version;
-- any other match is left exactly as it is, for a build that has it.
ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'eriantys'
  CHECK (length(game) BETWEEN 1 AND 64);
ALTER TABLE matches ADD COLUMN game_version INTEGER NOT NULL DEFAULT 1
  CHECK (game_version >= 1);

-- The summary shows them too (as the last columns, as PostgreSQL's does).
DROP VIEW match_summary;
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
  quarantine_reason,
  game,
  game_version
FROM matches;
