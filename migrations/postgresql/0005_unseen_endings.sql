-- Schema 5 (as migrations/0005_unseen_endings.sql): endings a player has not been
-- told yet, one row per nickname, kept in the transaction that ends the match and
-- deleted once the push was sent after their next login.
CREATE TABLE unseen_endings (
  nickname text PRIMARY KEY,
  match_id bigint NOT NULL REFERENCES matches (id),
  time     bigint NOT NULL,                              -- unix milliseconds of the ending
  line     text NOT NULL CHECK (line::jsonb IS NOT NULL)  -- the push, byte for byte as sent
);
CREATE INDEX unseen_endings_by_time ON unseen_endings (time);
