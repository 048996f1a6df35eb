-- Schema 9 (as migrations/0009_chat.sql): each match's chat, one table for its
-- two channels; rows are inserted, and marked deleted by an operator. The sender
-- is the nickname shown when it was sent (accounts will add sender_account).
CREATE TABLE chat_messages (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  match_id    bigint NOT NULL REFERENCES matches (id),
  channel     text NOT NULL CHECK (channel IN ('players', 'spectators')),
  sender_name text NOT NULL CHECK (length(sender_name) BETWEEN 1 AND 64),
  sent_ms     bigint NOT NULL,                     -- unix milliseconds, as events.time
  text        text NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
  deleted_ms  bigint,                              -- NULL until an operator deletes it
  deleted_by  text CHECK ((deleted_ms IS NULL) = (deleted_by IS NULL))
);
CREATE INDEX chat_by_match ON chat_messages (match_id, channel, id);

CREATE VIEW chat AS
SELECT
  id,
  match_id,
  channel,
  to_char(to_timestamp(sent_ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS sent,
  sender_name AS sender,
  text,
  to_char(to_timestamp(deleted_ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS deleted,
  deleted_by
FROM chat_messages;
