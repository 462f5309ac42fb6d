-- ### LightWave (`src/formats/lightwave/lw_tables.sql`)
-- Curve data of LightWave motions and envelopes (their splines are in the common `key_splines`).

-- What a curve track does before its first and after its last key (v3; LightWave tracks only).
CREATE TABLE IF NOT EXISTS track_behaviors (
  track_id       INTEGER PRIMARY KEY REFERENCES bone_tracks(id) ON DELETE CASCADE,  -- the track (`bone_tracks.id`)
  pre_behavior   INTEGER NOT NULL,  -- 0 reset, 1 constant, 2 repeat, 3 oscillate, 4 offset repeat, 5 linear (v1
                                    -- files: 1)
  post_behavior  INTEGER NOT NULL   -- as `pre_behavior`, after the last key
);
