-- Migration to schema version 3: spline data and behaviours of curve formats (LightWave).
CREATE TABLE IF NOT EXISTS key_splines (
  track_id     INTEGER NOT NULL REFERENCES bone_tracks(id) ON DELETE CASCADE,
  key_index    INTEGER NOT NULL,
  shape        INTEGER NOT NULL,
  linear_flag  INTEGER,
  p1 REAL, p2 REAL, p3 REAL, p4 REAL, p5 REAL, p6 REAL,
  PRIMARY KEY (track_id, key_index)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS track_behaviors (
  track_id       INTEGER PRIMARY KEY REFERENCES bone_tracks(id) ON DELETE CASCADE,
  pre_behavior   INTEGER NOT NULL,
  post_behavior  INTEGER NOT NULL
);
