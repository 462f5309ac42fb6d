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
