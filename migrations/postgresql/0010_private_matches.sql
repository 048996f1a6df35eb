-- Schema 10 (as migrations/0010_private_matches.sql): private matches, never
-- listed, joined with an invite code; the store keeps only each code's digest
-- (hex BLAKE2b-256). Revoked rows stay, so a revoked code is told apart from a
-- wrong one.
ALTER TABLE matches ADD COLUMN is_private boolean NOT NULL DEFAULT false;

CREATE TABLE invites (
  digest     text PRIMARY KEY CHECK (length(digest) = 64),
  match_id   bigint NOT NULL REFERENCES matches (id),
  created_ms bigint NOT NULL,
  expires_ms bigint NOT NULL CHECK (expires_ms > created_ms),
  max_uses   integer NOT NULL CHECK (max_uses BETWEEN 1 AND 100),
  uses       integer NOT NULL DEFAULT 0 CHECK (uses BETWEEN 0 AND max_uses),
  revoked    boolean NOT NULL DEFAULT false
);
CREATE INDEX invites_by_match ON invites (match_id);
