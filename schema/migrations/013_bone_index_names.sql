-- Migration to schema version 13: `bone_tracks_by_bone` also holds `bone_name`, so `bone-users`
-- answers from the index alone now that it names DS nodes from their models (v12 read each
-- matching track's row for its name: 85 ms instead of 20 on the bench's 10x database).
-- schema.sql recreates the index with the new columns after this step.
DROP INDEX IF EXISTS bone_tracks_by_bone;
