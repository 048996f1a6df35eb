-- Schema 10 (docs/accounts.md, "Invite links and private matches"): a match may be
-- private: the lobby never lists it and a player joins (or watches) it only with
-- an invite code. The store keeps a digest of each code, never the code itself
-- (BLAKE2b-256, 64 hex digits): a copy of the database opens no private match.
-- A match has at most one invite that is not revoked; revoked rows stay, so that
-- a revoked code is told apart from a wrong one. This is docs/home.md's planned
-- `invites` table; accounts will add created_by (ALTER TABLE ... ADD COLUMN ...
-- REFERENCES accounts).
ALTER TABLE matches ADD COLUMN is_private INTEGER NOT NULL DEFAULT 0
  CHECK (is_private IN (0, 1));

CREATE TABLE invites (
  digest     TEXT PRIMARY KEY CHECK (length(digest) = 64),  -- hex BLAKE2b-256 of the code
  match_id   INTEGER NOT NULL REFERENCES matches (id),
  created_ms INTEGER NOT NULL,                 -- unix milliseconds, as events.time
  expires_ms INTEGER NOT NULL CHECK (expires_ms > created_ms),  -- refused from then on
  max_uses   INTEGER NOT NULL CHECK (max_uses BETWEEN 1 AND 100),
  uses       INTEGER NOT NULL DEFAULT 0 CHECK (uses BETWEEN 0 AND max_uses),
  revoked    INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
);
CREATE INDEX invites_by_match ON invites (match_id);
