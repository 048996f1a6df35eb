-- Schema 11 (as migrations/0011_accounts.sql): accounts, their logged-in sessions
-- and password resets, secrets kept as digests only.
CREATE TABLE accounts (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                text NOT NULL CHECK (length(name) BETWEEN 3 AND 20),
  name_key            text NOT NULL UNIQUE,
  password_hash       text NOT NULL CHECK (length(password_hash) <= 127),
  created_ms          bigint NOT NULL,
  password_changed_ms bigint NOT NULL,
  disabled            boolean NOT NULL DEFAULT FALSE
);

CREATE TABLE sessions (
  token_digest  text PRIMARY KEY CHECK (length(token_digest) = 64),
  account_id    bigint NOT NULL REFERENCES accounts (id),
  created_ms    bigint NOT NULL,
  last_seen_ms  bigint NOT NULL,
  expires_ms    bigint NOT NULL,
  label         text NOT NULL DEFAULT ''
);
CREATE INDEX sessions_by_account ON sessions (account_id);

CREATE TABLE password_resets (
  code_digest text PRIMARY KEY CHECK (length(code_digest) = 64),
  account_id  bigint NOT NULL REFERENCES accounts (id),
  expires_ms  bigint NOT NULL,
  used_ms     bigint
);
