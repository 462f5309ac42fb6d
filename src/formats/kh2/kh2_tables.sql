-- ### KH2 (`src/formats/kh2/kh2_tables.sql`)
-- Motion headers, motion-set slots, and what the engine plays for each slot.

-- The header facts of each KH2 motion (v8; before, columns of `animations`): one row per
-- `animations` row of a `kh2_mset`, `kh2_bar`, `kh2_anb` or `kh2_motion` file.
CREATE TABLE IF NOT EXISTS kh2_motions (
  animation_id     INTEGER PRIMARY KEY REFERENCES animations(id) ON DELETE CASCADE,  -- the motion (`animations.id`)
  kind             TEXT NOT NULL,  -- `raw` (baked matrices) or `interpolated` (curves)
  bone_count       INTEGER NOT NULL,  -- bones the motion is built for
  total_bone_count INTEGER,  -- interpolated: bones + IK helpers; NULL for raw motions
  fps              REAL NOT NULL,  -- frame rate of `frame_start`, `frame_end`, `frame_return`
  frame_start      REAL NOT NULL,  -- first frame played
  frame_end        REAL NOT NULL,  -- last frame played; also `animations.end_time`
  frame_return     REAL NOT NULL   -- frame a loop returns to
);

-- KH2 BAR entries (v5): every slot of a motion set (`kh2_mset`), those of nested motion sets
-- (type-20 entries) included, and the entry listing of any other BAR (`kh2_bar`, where `set_type`,
-- `motion_id`, `state` and `motion_name` are NULL).
CREATE TABLE IF NOT EXISTS mset_slots (
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  parent_slot   INTEGER,  -- top-level slot of the nested motion set holding this slot; NULL at the top level
  slot          INTEGER NOT NULL,  -- position in its BAR, from 0
  set_type      INTEGER,  -- motion set type of its BAR: 0 Default, 1 Player, 2 Raw (Raw maps like Player, as
                          -- OpenKh's engine does; the type stays visible here)
  motion_id     INTEGER,  -- Player/Raw: `slot / 4`; Default: `slot`
  state         INTEGER,  -- Player/Raw: `slot % 4` (0 battle with weapon, 1 battle without, 2 field without,
                          -- 3 field with weapon); NULL for Default
  motion_name   TEXT,  -- `motion_id`'s name in the code numbering (`ref_motion_names`); queries can choose the
                       -- doc numbering
  entry_name    TEXT NOT NULL,  -- the entry's 4-character tag (ignored by the game; non-ASCII bytes shown as `?`)
  entry_type    INTEGER NOT NULL,  -- BAR type code: 17 Anb, 20 Motionset, 9 Motion, 16 MotionTriggers, 47
                                   -- Vibration, ...
  entry_type_name TEXT NOT NULL,  -- OpenKh's name for the type code
  is_dummy      INTEGER NOT NULL,  -- 1 when the entry has no data (size 0): the engine falls back to another slot
  size          INTEGER NOT NULL,  -- declared size in bytes
  data_offset   INTEGER NOT NULL,  -- absolute offset of the entry's data in the file
  duplicate_of  INTEGER,  -- the first earlier slot of the same BAR with the same (offset, size); NULL otherwise.
                          -- Found by position, because the entry's own flag is unreliable
  duplicate_flag INTEGER NOT NULL,  -- the entry's u16 duplicate flag as stored
  animation_id  INTEGER REFERENCES animations(id) ON DELETE SET NULL  -- the motion this slot holds
                                  -- (`animations.id`); NULL for dummies, nested-set entries and ANBs whose
                                  -- Motion entry is empty
);
CREATE INDEX IF NOT EXISTS mset_slots_by_file ON mset_slots(file_id, parent_slot, slot);
CREATE INDEX IF NOT EXISTS mset_slots_by_animation ON mset_slots(animation_id);

-- What the engine plays for each (motion, state) of a motion set after its fallback (v5): one row per
-- state of every group of four slots (Player/Raw; a trailing incomplete group counts its missing slots
-- as dummies), or per slot (Default). Nested motion sets have their own rows.
CREATE TABLE IF NOT EXISTS mset_resolution (
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  parent_slot   INTEGER,  -- as `mset_slots.parent_slot`
  motion_id     INTEGER NOT NULL,  -- the motion ID asked for
  state         INTEGER,  -- 0..3 as `mset_slots.state`; NULL for Default sets
  resolved_slot INTEGER NOT NULL  -- the slot played: own slot if real, else the first real one in the order
                                  -- 0->1->3->2, 1->0->2->3, 2->3->1->0, 3->2->0->1 (by state); -1 when all are
                                  -- dummies (T-pose)
);
CREATE INDEX IF NOT EXISTS mset_resolution_by_file ON mset_resolution(file_id, parent_slot, motion_id);

-- One row per KH2 model (`kh2_mdlx`, v15): the model entry's header. Its bones are `model_nodes`
-- rows (model_index 0), in the order of its bone table.
CREATE TABLE IF NOT EXISTS kh2_models (
  file_id           INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  entry_name        TEXT NOT NULL,  -- the type-4 entry's tag (often the object's prefix, `p_ex`; any text in mods)
  model_type        INTEGER NOT NULL,  -- 3 character (skeletal), 2 map, 4 shadow; only 3 has bones here
  bone_count        INTEGER NOT NULL,  -- bones in `model_nodes` (0 when the model is not a character)
  bone_table_offset INTEGER,  -- absolute offset of the first bone record in the file; NULL without bones
  skeleton_hash     TEXT  -- XXH3-64 of the bone table's bytes: models with one hash have one skeleton; NULL
                          -- without bones
);

-- The skeleton each KH2 motion animates (v15), linked again by an `index` of its dump that parses
-- its file, and for every motion when it parses or removes a model (`kh2_after_index.sql`). Candidates are character models with the motion's
-- `bone_count`, named as the motion's file (`P_EX100_MAGF.mset` -> `P_EX100_MAGF.mdlx`), then as its
-- base object code (`M_EX350_MEMO` -> `M_EX350`); first in the same folder or container, then
-- anywhere in the dump. Models with byte-identical bone tables count as one skeleton; several
-- different ones are never guessed between.
CREATE TABLE IF NOT EXISTS kh2_model_links (
  animation_id  INTEGER PRIMARY KEY REFERENCES animations(id) ON DELETE CASCADE,  -- the motion (`animations.id`)
  model_file_id INTEGER REFERENCES files(id) ON DELETE SET NULL,  -- the model's file (`kh2_models.file_id`;
                -- of identical skeletons, the first path); NULL when none
  method        TEXT NOT NULL,  -- where the model was found, `folder_own_name`, `folder_base_code`, `dump_own_name`
                -- or `dump_base_code` (`folder`: the motion's folder or container; `dump`: anywhere in its dump;
                -- then by which name), or `none` when no skeleton or several different ones fit
  skeletons     INTEGER NOT NULL,  -- different skeletons among the candidates of the deciding step (0 for none
                                   -- found, 1 linked, more: ambiguous)
  CHECK (method IN ('folder_own_name', 'folder_base_code', 'dump_own_name', 'dump_base_code', 'none'))
);
CREATE INDEX IF NOT EXISTS kh2_model_links_by_model ON kh2_model_links(model_file_id);

-- One row per KH2 motion with the skeleton it animates (`kh2_model_links` with paths).
-- column dump: `dumps.label`
-- column file: the motion's file (`files.path`)
-- column slot: `animations.slot`
-- column motion: `animations.name`
-- column bone_count: `kh2_motions.bone_count`
-- column model_file: the model's `files.path`; NULL when none was linked
-- column method: `kh2_model_links.method`
-- column skeletons: `kh2_model_links.skeletons`
CREATE VIEW IF NOT EXISTS kh2_links AS
SELECT d.label AS dump, f.path AS file, a.slot, a.name AS motion, k.bone_count, mf.path AS model_file, l.method,
       l.skeletons
FROM kh2_model_links l
JOIN animations a ON a.id = l.animation_id
JOIN kh2_motions k ON k.animation_id = a.id
JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
LEFT JOIN files mf ON mf.id = l.model_file_id;
