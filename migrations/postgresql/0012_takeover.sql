-- Schema 12 (as migrations/0012_takeover.sql): the computer level that takes the
-- seat of a player who leaves a started match of 3 or 4 seats; NULL = none.
ALTER TABLE matches ADD COLUMN takeover text
  CHECK (takeover IS NULL OR takeover IN ('random', 'greedy', 'strong'));
