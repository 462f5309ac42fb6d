-- Migration to schema version 2: per-file parse time, and the walk's warnings kept in the database.
-- Runs inside the migration transaction, before schema.sql (which creates anything still missing).
ALTER TABLE files ADD COLUMN parse_ms REAL;
CREATE TABLE IF NOT EXISTS scan_warnings (
  dump_id  INTEGER NOT NULL REFERENCES dumps(id) ON DELETE CASCADE,
  path     TEXT NOT NULL,
  message  TEXT NOT NULL
);
