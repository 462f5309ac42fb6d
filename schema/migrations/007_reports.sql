-- Migration to schema version 7: what the reports are built on. `shape_hash` groups animations with
-- the same bones, channels and key times whatever their values (near-identical animations).
ALTER TABLE animations ADD COLUMN shape_hash TEXT;
CREATE INDEX IF NOT EXISTS animations_by_shape ON animations(shape_hash);
