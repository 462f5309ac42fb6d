-- Migration to schema version 8: what only one format has moves to that format's tables. KH2's
-- header facts leave `animations` for `kh2_motions`; `bone_tracks.state` (NSBCA) goes, because
-- `node_states` holds the same per node and channel group.
CREATE TABLE IF NOT EXISTS kh2_motions (
  animation_id     INTEGER PRIMARY KEY REFERENCES animations(id) ON DELETE CASCADE,
  kind             TEXT NOT NULL,
  bone_count       INTEGER NOT NULL,
  total_bone_count INTEGER,
  fps              REAL NOT NULL,
  frame_start      REAL NOT NULL,
  frame_end        REAL NOT NULL,
  frame_return     REAL NOT NULL
);
INSERT INTO kh2_motions(animation_id, kind, bone_count, total_bone_count, fps, frame_start, frame_end, frame_return)
SELECT id, kind, bone_count, total_bone_count, fps, frame_start, frame_end, frame_return
FROM animations WHERE kind IS NOT NULL;
ALTER TABLE animations DROP COLUMN kind;
ALTER TABLE animations DROP COLUMN bone_count;
ALTER TABLE animations DROP COLUMN total_bone_count;
ALTER TABLE animations DROP COLUMN fps;
ALTER TABLE animations DROP COLUMN frame_start;
ALTER TABLE animations DROP COLUMN frame_end;
ALTER TABLE animations DROP COLUMN frame_return;
-- bone_tracks is rebuilt rather than altered: SQLite's DROP COLUMN fails on its last column when the
-- comments of the v7 definition surround it ("incomplete input"). Foreign keys are off while
-- migrations run (database.cpp), so dropping the old table deletes no keys; indexes come back with
-- schema.sql.
CREATE TABLE bone_tracks_v8 (
  id             INTEGER PRIMARY KEY,
  animation_id   INTEGER NOT NULL REFERENCES animations(id) ON DELETE CASCADE,
  track_index    INTEGER NOT NULL,
  bone_id        INTEGER,
  bone_name      TEXT,
  flags          INTEGER NOT NULL,
  track_flags    INTEGER NOT NULL,
  channels       TEXT NOT NULL,
  value_encoding TEXT NOT NULL,
  key_count      INTEGER NOT NULL,
  total_time     REAL,
  content_hash   TEXT NOT NULL
);
INSERT INTO bone_tracks_v8
SELECT id, animation_id, track_index, bone_id, bone_name, flags, track_flags, channels, value_encoding, key_count,
       total_time, content_hash
FROM bone_tracks;
DROP VIEW IF EXISTS bone_usage;  -- views over bone_tracks; schema.sql creates them again
DROP VIEW IF EXISTS track_reuse;
DROP TABLE bone_tracks;
ALTER TABLE bone_tracks_v8 RENAME TO bone_tracks;
