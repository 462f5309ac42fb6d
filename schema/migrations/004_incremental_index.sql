-- Migration to schema version 4: what an incremental re-index must match to reuse a dump's rows.
ALTER TABLE dumps ADD COLUMN build_id TEXT;
ALTER TABLE dumps ADD COLUMN keyframe_storage TEXT NOT NULL DEFAULT 'rows';
