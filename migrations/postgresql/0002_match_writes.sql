-- Schema 2 (as migrations/0002_match_writes.sql): the server's persisted timers.
--   deadline_kind: NULL (none), 'turn_grace', 'forfeit' or 'abandon'
--   deadline_seat: whose turn is waited for (turn_grace) or who would win (forfeit)
--   deadline_at:   unix milliseconds
ALTER TABLE matches ADD COLUMN deadline_kind text
  CHECK (deadline_kind IS NULL OR deadline_kind IN ('turn_grace', 'forfeit', 'abandon'));
ALTER TABLE matches ADD COLUMN deadline_seat integer;
ALTER TABLE matches ADD COLUMN deadline_at bigint;
