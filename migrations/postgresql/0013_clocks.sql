-- Schema 13 (as migrations/0013_clocks.sql): a match's time control, fixed at
-- creation (`clock`: time_control_text's compact text; NULL = no clock), and the
-- clock steps that are not events (pause, resume, untimed), folded with the
-- events after the event `after_seq` names, in id order.
ALTER TABLE matches ADD COLUMN clock text
  CHECK (clock IS NULL OR length(clock) BETWEEN 1 AND 40);
ALTER TABLE matches ADD COLUMN on_timeout text
  CHECK (on_timeout IS NULL OR on_timeout IN ('skip', 'computer', 'forfeit'));
CREATE TABLE clock_steps (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  match_id  bigint NOT NULL REFERENCES matches (id),
  after_seq bigint NOT NULL CHECK (after_seq >= 0),
  at_ms     bigint NOT NULL,
  kind      text NOT NULL CHECK (kind IN ('pause', 'resume', 'untimed')),
  seats     integer NOT NULL DEFAULT 0 CHECK (seats BETWEEN 0 AND 255)
);
CREATE INDEX clock_steps_by_match ON clock_steps (match_id, after_seq, id);
