-- Migration to schema version 6: where each NSBCA node channel comes from (identity, base, const,
-- animated) and the state of each stored track.
ALTER TABLE bone_tracks ADD COLUMN state TEXT;

-- One row per node of a skeletal animation, identity and base nodes included (v6; NSBCA).
CREATE TABLE IF NOT EXISTS node_states (
  animation_id  INTEGER NOT NULL REFERENCES animations(id) ON DELETE CASCADE,
  node_index    INTEGER NOT NULL,  -- position of the node's tag in the animation (= bone_tracks.bone_id)
  node_id       INTEGER NOT NULL,  -- model node the tag names (tag bits 24-31)
  tag           INTEGER NOT NULL,  -- the node's tag word as stored
  t_state       TEXT NOT NULL,     -- identity, base, const, animated, or per axis "x=... y=... z=..."
  r_state       TEXT NOT NULL,     -- identity, base, const or animated
  s_state       TEXT NOT NULL,     -- as t_state
  PRIMARY KEY (animation_id, node_index)
) WITHOUT ROWID;
