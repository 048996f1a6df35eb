-- Schema 4 (as migrations/0004_computer_seats.sql): a seat held by the server's own
-- computer player records its level; people's seats keep NULL.
ALTER TABLE seats ADD COLUMN computer TEXT
  CHECK (computer IS NULL OR computer IN ('random', 'greedy', 'strong'));
