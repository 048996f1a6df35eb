-- Schema 6: what a cluster of nodes on this database needs beside the leases
-- (docs/cluster.md).
--
-- nodes: where each node is reached, so a node that does not serve a match can
-- redirect a client to the one that does (the leases table names the node).
-- A node upserts its row at start; rows of nodes gone for good stay harmless.
CREATE TABLE nodes (
  node           text PRIMARY KEY,
  public_address text NOT NULL,            -- host:port of its TCP listener
  public_web     text,                     -- ws://host:port/ws, or NULL
  started_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Match ids for every node: max(id) + 1 at each node's start would give two
-- nodes the same id. A single server (no [cluster]) keeps taking max(id) + 1;
-- a node bumps the sequence past max(id) before its first nextval.
CREATE SEQUENCE match_ids AS bigint MINVALUE 1;
SELECT setval('match_ids', coalesce((SELECT max(id) FROM matches), 0) + 1, false);
