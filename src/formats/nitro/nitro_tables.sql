-- ### Nintendo DS models and animations (`src/formats/nitro/nitro_tables.sql`)
-- BMD0 models (`nsbmd`), the model each DS animation belongs to, and the other Nitro animation kinds.

-- One row per model of an `nsbmd` file (v12).
CREATE TABLE IF NOT EXISTS nitro_models (
  file_id        INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  model_index    INTEGER NOT NULL,  -- position in the file's model dictionary, from 0
  name           TEXT NOT NULL,  -- the model's name (the converter names a model's animations after it)
  node_count     INTEGER NOT NULL,  -- numNode: nodes (bones) in `model_nodes`
  material_count INTEGER NOT NULL,  -- materials in `model_materials`
  shape_count    INTEGER NOT NULL,  -- shapes (meshes)
  vertex_count   INTEGER NOT NULL,  -- numVertex as stored
  polygon_count  INTEGER NOT NULL,  -- numPolygon as stored
  position_scale REAL NOT NULL,  -- posScale: vertices are multiplied by it; joint translations are not
  PRIMARY KEY (file_id, model_index)
) WITHOUT ROWID;

-- One row per material of a model (v12); BTA0, BTP0 and BMA0 animations bind to materials by name.
CREATE TABLE IF NOT EXISTS model_materials (
  file_id        INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  model_index    INTEGER NOT NULL,  -- the model (`nitro_models.model_index`)
  material_index INTEGER NOT NULL,  -- position in the model's material dictionary, from 0
  name           TEXT NOT NULL,  -- the material's name, e.g. `lambert5`
  PRIMARY KEY (file_id, model_index, material_index)
) WITHOUT ROWID;

-- One row per texture and per palette name of an `nsbtp` (BTP0) animation (v12): the names its keys'
-- indexes stand for (`keyframes.x` = texture index, `y` = palette index of the `pattern` tracks;
-- palette index 255 keeps the palette and has no row). They resolve in the model's TEX0.
CREATE TABLE IF NOT EXISTS pattern_names (
  animation_id INTEGER NOT NULL REFERENCES animations(id) ON DELETE CASCADE,  -- the animation (`animations.id`)
  kind         TEXT NOT NULL CHECK (kind IN ('texture', 'palette')),  -- which table of the animation: `texture`
                                                                       -- (numTex names) or `palette` (numPltt)
  name_index   INTEGER NOT NULL,  -- position in that table, from 0: the index a key stores
  name         TEXT NOT NULL,  -- the texture or palette name, e.g. `mg13_w01.1`
  PRIMARY KEY (animation_id, kind, name_index)
) WITHOUT ROWID;

-- The model each DS animation (`nsbca`, `nsbva`, `nsbta`, `nsbtp`, `nsbma`) belongs to (v12),
-- linked again by an `index` of its dump that parses its file, and for every animation when it
-- parses or removes a model (`nitro_after_index.sql`). Nothing in either file names
-- the other: the converter names an animation after its model, so the join looks in the same
-- container (or, for loose files, the same folder) for the one model of the animation's name (for
-- node animations, with at least as many nodes), else, for node animations, for the one model with
-- the same node count. Several candidates are never guessed between.
CREATE TABLE IF NOT EXISTS nitro_model_links (
  animation_id  INTEGER PRIMARY KEY REFERENCES animations(id) ON DELETE CASCADE,  -- the animation (`animations.id`)
  model_file_id INTEGER REFERENCES files(id) ON DELETE SET NULL,  -- the model's `nsbmd` file; NULL when none
  model_index   INTEGER,  -- the model in that file (`nitro_models.model_index`)
  method        TEXT NOT NULL CHECK (method IN ('name', 'node_count', 'none')),  -- how the model was found:
                -- `name` (same name), `node_count` (the only model with the animation's node count), `none`
  exact         INTEGER  -- node animations: 1 when the node counts are equal, 0 when the animation has fewer
                         -- nodes (the model's others keep their bind pose); NULL for material animations or `none`
);
CREATE INDEX IF NOT EXISTS nitro_model_links_by_model ON nitro_model_links(model_file_id);

-- One row per DS animation with the model it belongs to (`nitro_model_links` with paths and names).
-- column dump: `dumps.label`
-- column file: the animation file's `files.path`
-- column format: `files.format` (`nsbca`, `nsbva`, `nsbta`, `nsbtp`, `nsbma`)
-- column animation: `animations.name`
-- column model_file: the model file's `files.path`; NULL when none was found
-- column model: `nitro_models.name`
-- column method: `nitro_model_links.method`
-- column exact: `nitro_model_links.exact`
CREATE VIEW IF NOT EXISTS nitro_links AS
SELECT d.label AS dump, f.path AS file, f.format, a.name AS animation, mf.path AS model_file, m.name AS model,
       l.method, l.exact
FROM nitro_model_links l
JOIN animations a ON a.id = l.animation_id
JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
LEFT JOIN files mf ON mf.id = l.model_file_id
LEFT JOIN nitro_models m ON m.file_id = l.model_file_id AND m.model_index = l.model_index;

-- ### NSBCA (`src/formats/nitro/nitro_tables.sql`)

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
