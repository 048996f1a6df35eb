-- Schema 2: the server's persisted timers. A match waiting on an absent player
-- records its deadline, so a restarted server re-arms it instead of forgetting it.
--   deadline_kind: NULL (none), 'turn_grace', 'forfeit' or 'abandon'
--   deadline_seat: whose turn is waited for (turn_grace) or who would win (forfeit)
--   deadline_at:   unix milliseconds
ALTER TABLE matches ADD COLUMN deadline_kind TEXT
  CHECK (deadline_kind IS NULL OR deadline_kind IN ('turn_grace', 'forfeit', 'abandon'));
ALTER TABLE matches ADD COLUMN deadline_seat INTEGER;
ALTER TABLE matches ADD COLUMN deadline_at INTEGER;
