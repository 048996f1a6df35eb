-- Schema 14 (as migrations/0014_seat_keys.sql): the account that took a seat
-- (NULL for a guest or a computer), and the rating key of the person who held
-- the seat before a computer took it over (NULL when nobody left it).
ALTER TABLE seats ADD COLUMN account_id bigint REFERENCES accounts (id);
ALTER TABLE seats ADD COLUMN left_by text
  CHECK (left_by IS NULL OR length(left_by) BETWEEN 1 AND 80);
