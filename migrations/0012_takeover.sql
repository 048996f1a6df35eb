-- Schema 12 (docs/accounts.md, "A computer takes the seat"): a match of 3 or 4
-- seats may be created with a takeover level. When one of its players leaves the
-- started match, or stays away past the turn grace, a computer player of that
-- level takes the seat (a seats row with `computer` set) and the match goes on.
-- NULL: nobody takes a seat over (the behaviour of schema 10).
ALTER TABLE matches ADD COLUMN takeover TEXT
  CHECK (takeover IS NULL OR takeover IN ('random', 'greedy', 'strong'));
