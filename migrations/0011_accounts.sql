-- Schema 11 (docs/accounts.md, docs/home.md "The tables these need"): accounts,
-- their logged-in sessions and password resets. Only digests of secrets are kept
-- (a session's secret, a reset's one-time code): a copy of the database logs
-- nobody in. Times are unix milliseconds, as events.time.
CREATE TABLE accounts (
  id                  INTEGER PRIMARY KEY,
  name                TEXT NOT NULL CHECK (length(name) BETWEEN 3 AND 20),  -- as typed, NFC
  name_key            TEXT NOT NULL UNIQUE,                -- case-folded: one account per key
  password_hash       TEXT NOT NULL CHECK (length(password_hash) <= 127),
  created_ms          INTEGER NOT NULL,
  password_changed_ms INTEGER NOT NULL,
  disabled            BOOLEAN NOT NULL DEFAULT FALSE       -- eryantis-admin disable
);

-- Logged-in sessions: log out deletes rows (one, or all of an account).
CREATE TABLE sessions (
  token_digest  TEXT PRIMARY KEY CHECK (length(token_digest) = 64),  -- hex BLAKE2b-256
  account_id    INTEGER NOT NULL REFERENCES accounts (id),
  created_ms    INTEGER NOT NULL,
  last_seen_ms  INTEGER NOT NULL,
  expires_ms    INTEGER NOT NULL,
  label         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_by_account ON sessions (account_id);

-- A password reset's one-time code (eryantis-admin reset-password): single use, short-lived.
CREATE TABLE password_resets (
  code_digest TEXT PRIMARY KEY CHECK (length(code_digest) = 64),
  account_id  INTEGER NOT NULL REFERENCES accounts (id),
  expires_ms  INTEGER NOT NULL,
  used_ms     INTEGER                                      -- NULL until used
);
