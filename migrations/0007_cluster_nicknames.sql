-- Schema 7 (docs/cluster.md): which node a nickname is logged in on lives in
-- PostgreSQL only (postgresql/0007_cluster_nicknames.sql). One SQLite file has
-- one server, which knows its own sessions; the file exists so both backends
-- number their schemas alike.
SELECT 1;
