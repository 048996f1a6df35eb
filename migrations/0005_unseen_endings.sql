-- Schema 5: endings a player has not been told yet. When a match ends (finished
-- or abandoned), or frees a seat in setup, while that seat's player is not
-- connected, the push they missed (game_over, match_abandoned or left) is kept
-- here in the same transaction as the ending, sent after their next login, and
-- then deleted. One row per nickname: a newer ending replaces an older one. The
-- server loads the newest rows at start (server::kUnseenEndings of them), so a
-- restart in between no longer loses the result.
CREATE TABLE unseen_endings (
  nickname TEXT PRIMARY KEY,
  match_id INTEGER NOT NULL REFERENCES matches (id),
  time     INTEGER NOT NULL,                        -- unix milliseconds of the ending
  line     TEXT NOT NULL CHECK (json_valid(line))   -- the push, exactly as it is sent
) WITHOUT ROWID;
CREATE INDEX unseen_endings_by_time ON unseen_endings (time);
