-- Schema 3 (as migrations/0003_events_in_append_order.sql): SQLite rebuilt its
-- events table so rows are stored in append order. A PostgreSQL heap table
-- already is, with the primary key as a separate index: nothing to change. The
-- file exists so both backends number their schemas alike (the next SQLite
-- migration, NNNN_x.sql, gets its twin here as postgresql/NNNN_x.sql).
SELECT 1;
