-- ### NSBCA (`src/formats/nsbca/nsbca_tables.sql`)

-- Per node of an NSBCA animation (v6), identity and base nodes included: where each channel group
-- comes from. `WITHOUT ROWID`, keyed by (`animation_id`, `node_index`).
CREATE TABLE IF NOT EXISTS node_states (
  animation_id  INTEGER NOT NULL REFERENCES animations(id) ON DELETE CASCADE,  -- the animation (`animations.id`)
  node_index    INTEGER NOT NULL,  -- position of the node's tag in the J.AC (= `bone_tracks.bone_id`)
  node_id       INTEGER NOT NULL,  -- the model node the tag names (tag bits 24-31)
  tag           INTEGER NOT NULL,  -- the tag word as stored
  t_state       TEXT NOT NULL,  -- `identity` (0), `base` (the model's bind pose), `const`, `animated`, or per axis
                                -- `x=... y=... z=...`
  r_state       TEXT NOT NULL,  -- `identity`, `base`, `const` or `animated`
  s_state       TEXT NOT NULL,  -- as `t_state` (identity: 1)
  PRIMARY KEY (animation_id, node_index)
) WITHOUT ROWID;
