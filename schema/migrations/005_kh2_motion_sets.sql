-- Migration to schema version 5: KH2 motion sets (slots, their resolution, motion names) and the
-- frame data of formats that carry it.
ALTER TABLE animations ADD COLUMN kind TEXT;
ALTER TABLE animations ADD COLUMN bone_count INTEGER;
ALTER TABLE animations ADD COLUMN total_bone_count INTEGER;
ALTER TABLE animations ADD COLUMN fps REAL;
ALTER TABLE animations ADD COLUMN frame_start REAL;
ALTER TABLE animations ADD COLUMN frame_end REAL;
ALTER TABLE animations ADD COLUMN frame_return REAL;

-- Entries of KH2 BARs (v5): the slots of a motion set (.mset), including those of nested motion
-- sets, and the entry listing of any other BAR (kh2_bar: set_type, motion_id, state NULL).
CREATE TABLE IF NOT EXISTS mset_slots (
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  parent_slot   INTEGER,           -- top-level slot of the nested motion set (type 20) holding it; NULL at the top
  slot          INTEGER NOT NULL,  -- position in its BAR, from 0
  set_type      INTEGER,           -- its BAR's motion set type: 0 Default, 1 Player, 2 Raw
  motion_id     INTEGER,           -- Player/Raw: slot / 4; Default: slot
  state         INTEGER,           -- Player/Raw: slot % 4 (0 battle+weapon, 1 battle, 2 field, 3 field+weapon)
  motion_name   TEXT,              -- motion_id's name in the code numbering (ref_motion_names)
  entry_name    TEXT NOT NULL,     -- the BAR entry's 4-character tag (ignored by the game)
  entry_type    INTEGER NOT NULL,  -- BAR type code: 17 Anb, 20 Motionset, 9 Motion, ...
  entry_type_name TEXT NOT NULL,   -- OpenKh's name for entry_type
  is_dummy      INTEGER NOT NULL,  -- 1 when the entry has no data (size 0): the engine falls back
  size          INTEGER NOT NULL,  -- bytes, as declared in the entry
  data_offset   INTEGER NOT NULL,  -- absolute offset of the entry's data in the file
  duplicate_of  INTEGER,           -- earlier slot of the same BAR with the same (offset, size)
  duplicate_flag INTEGER NOT NULL, -- the entry's own u16 duplicate flag, as stored (unreliable)
  animation_id  INTEGER REFERENCES animations(id) ON DELETE SET NULL  -- the motion it holds, if any
);
CREATE INDEX IF NOT EXISTS mset_slots_by_file ON mset_slots(file_id, parent_slot, slot);
CREATE INDEX IF NOT EXISTS mset_slots_by_animation ON mset_slots(animation_id);

-- What the engine plays for each (motion, state) of a motion set after its fallback (v5).
CREATE TABLE IF NOT EXISTS mset_resolution (
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  parent_slot   INTEGER,           -- as mset_slots.parent_slot
  motion_id     INTEGER NOT NULL,
  state         INTEGER,           -- NULL for Default sets
  resolved_slot INTEGER NOT NULL   -- slot played; -1 when every candidate is a dummy (T-pose)
);
CREATE INDEX IF NOT EXISTS mset_resolution_by_file ON mset_resolution(file_id, parent_slot, motion_id);

CREATE TABLE IF NOT EXISTS ref_motion_names (
  game       TEXT NOT NULL,
  numbering  TEXT NOT NULL,   -- KH2: 'code' (OpenKh MotionSet.cs, the default) or 'doc' (dbg/motion.bin order)
  motion_id  INTEGER NOT NULL,
  name       TEXT NOT NULL,
  source     TEXT,
  PRIMARY KEY (game, numbering, motion_id)
);
