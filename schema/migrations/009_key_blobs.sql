-- Migration to schema version 9: keys packed per track. Existing keys stay where they are, as
-- rows: the tables are renamed, and `keyframes` and `key_splines` become virtual tables that read
-- rows and blobs alike, so a v8 dump answers every query as before without a re-index. SQLite's
-- RENAME also rewrites a view or trigger of the user's own that names `keyframes` or `key_splines`
-- to the renamed tables (README "How keys are stored": recreate it to see later dumps' keys).
ALTER TABLE keyframes RENAME TO keyframe_rows;
ALTER TABLE key_splines RENAME TO key_spline_rows;
ALTER TABLE bone_tracks ADD COLUMN keys BLOB;
-- Track hashes are read in whole-table passes (track_reuse, report reuse): their index goes.
DROP INDEX IF EXISTS bone_tracks_by_hash;
