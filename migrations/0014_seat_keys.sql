-- Schema 14 (docs/accounts.md, "Who is rated: the player key"): who a seat's
-- rating belongs to. `account_id` is the account that took the seat (NULL for a
-- guest or a computer player); `left_by` is the rating key ("account:7",
-- "name:ada") of the person who held the seat before a computer took it over
-- (NULL when nobody left it). Rows written before schema 14 have both NULL.
ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES accounts (id);
ALTER TABLE seats ADD COLUMN left_by TEXT
  CHECK (left_by IS NULL OR length(left_by) BETWEEN 1 AND 80);
