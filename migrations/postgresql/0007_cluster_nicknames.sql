-- Schema 7: a nickname is logged in on one node of the cluster at a time
-- (docs/cluster.md). A node claims the row at login, renews its rows with its
-- leases (every lease_ms / 3) and deletes them at logout, at its start and at a
-- graceful stop; the rows of a node that died run out at expires_at (the
-- database's clock, like the leases) and are then taken over by the next login.
CREATE TABLE nicknames (
  nickname   text PRIMARY KEY,
  node       text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX nicknames_by_node ON nicknames (node);
