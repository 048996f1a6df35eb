-- Schema 4: computer players (docs/bots.md). A seat held by the server's own
-- player records its level; people's seats keep NULL. A computer seat's nickname
-- is the server's ("Computer 1"): it is never a valid login name, so it cannot be
-- claimed, and its resume_token_hash is empty (no token opens it).
--   computer: NULL (a person), 'random', 'greedy' or 'strong'
ALTER TABLE seats ADD COLUMN computer TEXT
  CHECK (computer IS NULL OR computer IN ('random', 'greedy', 'strong'));
