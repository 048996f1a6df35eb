-- Schema 6 (docs/cluster.md): the cluster's tables live in PostgreSQL only
-- (postgresql/0006_cluster_nodes.sql: the nodes table, the match id sequence).
-- One SQLite file has one writer and takes its match ids as max(id) + 1, so it
-- needs nothing; the file exists so both backends number their schemas alike.
SELECT 1;
