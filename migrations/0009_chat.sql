-- Schema 9 (docs/home.md, "Chat"): each match's chat, one table for its two
-- channels (its players' and its spectators'). Platform rows beside the match,
-- never events of its game: a message changes no state and is not folded. Rows
-- are inserted, and marked deleted by an operator (eryantis-admin chat-delete);
-- a deleted row keeps its text for the operator's record but is never sent again.
-- The sender is the nickname shown when it was sent: accounts come later, and
-- will add a sender_account column (ALTER TABLE ... ADD COLUMN ... REFERENCES).
CREATE TABLE chat_messages (
  id          INTEGER PRIMARY KEY,                 -- increasing in the order stored
  match_id    INTEGER NOT NULL REFERENCES matches (id),
  channel     TEXT NOT NULL CHECK (channel IN ('players', 'spectators')),
  sender_name TEXT NOT NULL CHECK (length(sender_name) BETWEEN 1 AND 64),
  sent_ms     INTEGER NOT NULL,                    -- unix milliseconds, as events.time
  text        TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),  -- cleaned; [chat] max_chars
  deleted_ms  INTEGER,                             -- NULL until an operator deletes it
  deleted_by  TEXT CHECK ((deleted_ms IS NULL) = (deleted_by IS NULL))
);
CREATE INDEX chat_by_match ON chat_messages (match_id, channel, id);

-- For people in sqlite3: SELECT * FROM chat WHERE match_id = 7;
CREATE VIEW chat AS
SELECT
  id,
  match_id,
  channel,
  strftime('%Y-%m-%dT%H:%M:%fZ', sent_ms / 1000.0, 'unixepoch') AS sent,
  sender_name AS sender,
  text,
  strftime('%Y-%m-%dT%H:%M:%fZ', deleted_ms / 1000.0, 'unixepoch') AS deleted,
  deleted_by
FROM chat_messages;
