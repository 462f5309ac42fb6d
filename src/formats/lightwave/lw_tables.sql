-- ### LightWave (`src/formats/lightwave/lw_tables.sql`)
-- Curve data of LightWave motions and envelopes; KH2 curve keys use `key_splines` too.

-- Spline data of curve formats (v3), one row per key, parallel to `keyframes`. LightWave keys
-- (`lw_mot`, `lw_env`) and KH2 curve keys have them; GNT, Kuper and KH2 raw keys do not. KH2 keys use
-- the same shape codes for their interpolation (constant = 4 stepped, linear = 3, hermite = 1), with the
-- in-tangent in `p1` and the out-tangent in `p2` (hermite keys; 0 otherwise).
CREATE TABLE IF NOT EXISTS key_splines (
  track_id     INTEGER NOT NULL REFERENCES bone_tracks(id) ON DELETE CASCADE,  -- the track (`bone_tracks.id`)
  key_index    INTEGER NOT NULL,  -- the key (`keyframes.key_index`)
  shape        INTEGER NOT NULL,  -- shape of the span that ends at this key: 0 TCB, 1 Hermite, 2 1D Bezier,
                                  -- 3 linear, 4 stepped, 5 2D Bezier (v1 files: 3 when the linear flag is 1, else 0)
  linear_flag  INTEGER,  -- LightWave v1 only: the key line's linear flag; NULL for v3
  p1 REAL,  -- v3: TCB/Hermite tension, 2D Bezier in-handle time offset; v1: tension
  p2 REAL,  -- v3: continuity, or 2D Bezier in-handle value offset; v1: continuity
  p3 REAL,  -- v3: bias, or 2D Bezier out-handle time offset; v1: bias
  p4 REAL,  -- v3: incoming tangent as LightWave wrote it (TCB: informational), or 2D Bezier out-handle value
            -- offset; v1: 0
  p5 REAL,  -- v3: outgoing tangent as written; v1: 0
  p6 REAL,  -- v3: as written (0); v1: 0
  PRIMARY KEY (track_id, key_index)
) WITHOUT ROWID;

-- What a curve track does before its first and after its last key (v3; LightWave tracks only).
CREATE TABLE IF NOT EXISTS track_behaviors (
  track_id       INTEGER PRIMARY KEY REFERENCES bone_tracks(id) ON DELETE CASCADE,  -- the track (`bone_tracks.id`)
  pre_behavior   INTEGER NOT NULL,  -- 0 reset, 1 constant, 2 repeat, 3 oscillate, 4 offset repeat, 5 linear (v1
                                    -- files: 1)
  post_behavior  INTEGER NOT NULL   -- as `pre_behavior`, after the last key
);
