-- Schema 13 (docs/home.md, "Clocks"): a match's time control, fixed at creation,
-- and the clock steps that are not events. The clocks themselves are never
-- stored: the server folds them from events.time and these steps (clock.hpp).
-- `clock` is the compact text time_control_text writes ("10m+5s", "24h/turn");
-- NULL = no clock (every match before schema 13). `on_timeout` is what happens
-- to a seat that runs out.
ALTER TABLE matches ADD COLUMN clock TEXT
  CHECK (clock IS NULL OR length(clock) BETWEEN 1 AND 40);
ALTER TABLE matches ADD COLUMN on_timeout TEXT
  CHECK (on_timeout IS NULL OR on_timeout IN ('skip', 'computer', 'forfeit'));
-- Pauses (the match waits for players, or the server is down or draining),
-- resumes, and seats no longer timed (a computer plays them). Folded with the
-- events: each after the event `after_seq` names, in id order.
CREATE TABLE clock_steps (
  id        INTEGER PRIMARY KEY,
  match_id  INTEGER NOT NULL REFERENCES matches (id),
  after_seq INTEGER NOT NULL CHECK (after_seq >= 0),
  at_ms     INTEGER NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('pause', 'resume', 'untimed')),
  seats     INTEGER NOT NULL DEFAULT 0 CHECK (seats BETWEEN 0 AND 255)
);
CREATE INDEX clock_steps_by_match ON clock_steps (match_id, after_seq, id);
