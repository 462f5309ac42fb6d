-- animdex database schema, version 7 (PRAGMA user_version = 7).
-- A database at an older version is brought here by schema/migrations/NNN_*.sql (NNN = target version).
-- Every table and column is documented in schema/README.md; a test keeps the two in step.
-- Applied by `animdex index` when it creates a database; all statements are idempotent.

PRAGMA application_id = 1095648344;  -- 0x414E4458 'ANDX': marks the file as an animdex database

-- One row per `animdex index --label L` run. Re-indexing a label replaces its dump atomically.
CREATE TABLE IF NOT EXISTS dumps (
  id            INTEGER PRIMARY KEY,
  label         TEXT NOT NULL UNIQUE,   -- user's name for the dump, e.g. 'gnt4-ntsc'
  root          TEXT NOT NULL,          -- root folder(s) given to index, absolute; several joined by '\n'
  indexed_at    TEXT NOT NULL,          -- UTC time the index run finished, ISO 8601
  file_count    INTEGER NOT NULL DEFAULT 0,  -- files recorded for this dump
  error_count   INTEGER NOT NULL DEFAULT 0,  -- files with status 'error'
  tool_version  TEXT NOT NULL DEFAULT '',    -- animdex version that wrote the dump
  build_id      TEXT,                        -- hash of the build's version, schema, references and queries (v4)
  keyframe_storage TEXT NOT NULL DEFAULT 'rows'  -- 'rows' or 'none' (index --keyframes) (v4)
);

-- Every regular file found under the roots, animation file or not.
CREATE TABLE IF NOT EXISTS files (
  id              INTEGER PRIMARY KEY,
  dump_id         INTEGER NOT NULL REFERENCES dumps(id) ON DELETE CASCADE,
  path            TEXT NOT NULL,     -- relative to the root, '/'-separated (root's folder name first when several roots)
  character       TEXT,              -- folder after 'chr/' (GNT character code); KH2: NAME of obj/NAME.mset; else NULL
  format          TEXT NOT NULL,     -- gnt_mot, kh2_mset, kh2_anb, kh2_bar, kh2_motion, nsbca, lw_mot, lw_env or unknown
  size            INTEGER NOT NULL,  -- bytes
  mtime_ns        INTEGER,           -- modification time, nanoseconds since the Unix epoch
  content_hash    TEXT,              -- XXH3-64 of the whole file, 16 hex digits; NULL if it could not be read
  status          TEXT NOT NULL CHECK (status IN ('ok', 'error', 'unknown')),
  error           TEXT,              -- for status 'error': what was wrong, with the offset
  error_offset    INTEGER,           -- byte offset the error names, when there is one
  animation_count INTEGER NOT NULL DEFAULT 0,
  parse_ms        REAL,              -- milliseconds spent parsing (v2); NULL when not parsed
  UNIQUE (dump_id, path)
);
CREATE INDEX IF NOT EXISTS files_by_character ON files(character);
CREATE INDEX IF NOT EXISTS files_by_hash ON files(content_hash);

-- What the walk passed over (v2): symbolic link loops, dangling links, folders it could not finish;
-- and warnings from parsing a file that did not stop the parse (e.g. LightWave sanity checks).
CREATE TABLE IF NOT EXISTS scan_warnings (
  dump_id  INTEGER NOT NULL REFERENCES dumps(id) ON DELETE CASCADE,
  path     TEXT NOT NULL,   -- relative to the root, as files.path
  message  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS scan_warnings_by_dump ON scan_warnings(dump_id);

-- One row per animation in a file (GNT: per non-empty slot).
CREATE TABLE IF NOT EXISTS animations (
  id            INTEGER PRIMARY KEY,
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  slot          INTEGER,   -- position in the container (GNT: the slot index, = animation ID)
  motion_id     INTEGER,   -- ID the game asks for (GNT: animation ID)
  name          TEXT,      -- purpose or name where known (GNT: from ref_animation_purposes)
  play_speed    REAL,      -- GNT: GNTA header 0x08
  end_time      REAL,      -- native time unit (GNT: seconds)
  frame_count   INTEGER,   -- GNT: round(end_time * 60)
  track_count   INTEGER NOT NULL,
  key_count     INTEGER NOT NULL,  -- keys over all tracks
  content_hash  TEXT NOT NULL,     -- hash of the decoded content (not its offset): equal content, equal hash
  kind          TEXT,     -- KH2: 'raw' or 'interpolated' (v5)
  bone_count    INTEGER,  -- KH2: bones the motion is built for (v5)
  total_bone_count INTEGER,  -- KH2 interpolated: bones + IK helpers (v5)
  fps           REAL,     -- KH2: frames per second of frame_start/end/return (v5)
  frame_start   REAL,     -- KH2 (v5)
  frame_end     REAL,     -- KH2 (v5)
  frame_return  REAL,     -- KH2: frame a loop returns to (v5)
  shape_hash    TEXT      -- hash of the structure only (bones, channels, key times): equal for near-identical animations (v7)
);
CREATE INDEX IF NOT EXISTS animations_by_file ON animations(file_id);
CREATE INDEX IF NOT EXISTS animations_by_motion ON animations(motion_id);
CREATE INDEX IF NOT EXISTS animations_by_hash ON animations(content_hash);
CREATE INDEX IF NOT EXISTS animations_by_shape ON animations(shape_hash);

-- One row per animated bone (or node, or channel) of an animation.
CREATE TABLE IF NOT EXISTS bone_tracks (
  id            INTEGER PRIMARY KEY,
  animation_id  INTEGER NOT NULL REFERENCES animations(id) ON DELETE CASCADE,
  track_index   INTEGER NOT NULL,  -- order in the file
  bone_id       INTEGER,           -- GNT: bone ID as unsigned 16-bit (0xFFFF = 65535)
  bone_name     TEXT,              -- from ref_bone_names where known
  flags         INTEGER NOT NULL,  -- GNT: flags1 (0x0202 16-bit coords, 0x0204 f32 coords, 0x0000 time only)
  track_flags   INTEGER NOT NULL,  -- GNT: TRANSLATE 0x01, SCALE 0x02, ROTATE 0x08, ENABLED 0x20, DISABLED 0x40
  channels      TEXT NOT NULL,     -- letters T, R, S named by track_flags, in that order
  value_encoding TEXT NOT NULL,    -- bf16x4, f32x4 or none (time only)
  key_count     INTEGER NOT NULL,
  total_time    REAL,              -- GNT: bone header 0x08, seconds
  content_hash  TEXT NOT NULL,     -- hash of this track's decoded content
  state         TEXT               -- NSBCA: const, animated or a per-axis mix (v6); NULL for other formats
);
CREATE INDEX IF NOT EXISTS bone_tracks_by_animation ON bone_tracks(animation_id);
CREATE INDEX IF NOT EXISTS bone_tracks_by_bone ON bone_tracks(bone_id, animation_id);
CREATE INDEX IF NOT EXISTS bone_tracks_by_hash ON bone_tracks(content_hash);

-- Decoded keys of a track.
CREATE TABLE IF NOT EXISTS keyframes (
  track_id   INTEGER NOT NULL REFERENCES bone_tracks(id) ON DELETE CASCADE,
  key_index  INTEGER NOT NULL,
  time       REAL NOT NULL,  -- native unit (GNT: seconds, frame / 60)
  frame      INTEGER,        -- GNT: round(time * 60)
  x REAL, y REAL, z REAL, w REAL,  -- decoded values; NULL for time-only tracks
  PRIMARY KEY (track_id, key_index)
) WITHOUT ROWID;

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

-- Spline data of curve formats (LightWave; v3): the shape of the span that ends at each key.
CREATE TABLE IF NOT EXISTS key_splines (
  track_id     INTEGER NOT NULL REFERENCES bone_tracks(id) ON DELETE CASCADE,
  key_index    INTEGER NOT NULL,
  shape        INTEGER NOT NULL,  -- 0 TCB, 1 Hermite, 2 1D Bezier, 3 linear, 4 stepped, 5 2D Bezier
  linear_flag  INTEGER,           -- LightWave v1 key lines: the linear flag (1 = shape 3)
  p1 REAL, p2 REAL, p3 REAL, p4 REAL, p5 REAL, p6 REAL,  -- v1: tension, continuity, bias, 0, 0, 0
  PRIMARY KEY (track_id, key_index)
) WITHOUT ROWID;

-- Pre/post behaviours of curve tracks (LightWave; v3): 0 reset, 1 constant, 2 repeat,
-- 3 oscillate, 4 offset repeat, 5 linear.
CREATE TABLE IF NOT EXISTS track_behaviors (
  track_id       INTEGER PRIMARY KEY REFERENCES bone_tracks(id) ON DELETE CASCADE,
  pre_behavior   INTEGER NOT NULL,
  post_behavior  INTEGER NOT NULL
);

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

-- Reference data, loaded from schema/reference/*.tsv (embedded at build time) on every index run.
CREATE TABLE IF NOT EXISTS ref_bone_names (
  game      TEXT NOT NULL,
  bone_id   INTEGER NOT NULL,
  name      TEXT,     -- community name
  alt_name  TEXT,     -- second naming (GNT: .jcv joint name)
  source    TEXT,
  PRIMARY KEY (game, bone_id)
);
CREATE TABLE IF NOT EXISTS ref_animation_purposes (
  game       TEXT NOT NULL,
  motion_id  INTEGER NOT NULL,
  purpose    TEXT NOT NULL,
  source     TEXT,
  PRIMARY KEY (game, motion_id)
);
CREATE TABLE IF NOT EXISTS ref_characters (
  game         TEXT NOT NULL,
  code         TEXT NOT NULL,  -- folder name under chr/
  internal_id  INTEGER,        -- game's character ID
  name         TEXT NOT NULL,
  source       TEXT,
  PRIMARY KEY (game, code)
);

CREATE TABLE IF NOT EXISTS ref_motion_names (
  game       TEXT NOT NULL,
  numbering  TEXT NOT NULL,   -- KH2: 'code' (OpenKh MotionSet.cs, the default) or 'doc' (dbg/motion.bin order)
  motion_id  INTEGER NOT NULL,
  name       TEXT NOT NULL,
  source     TEXT,
  PRIMARY KEY (game, numbering, motion_id)
);

-- Animations with their file, dump and character: the join most queries start from.
CREATE VIEW IF NOT EXISTS animation_overview AS
SELECT d.label AS dump, f.path, f.character, f.format, a.id AS animation_id, a.slot, a.motion_id, a.name,
       a.frame_count, a.track_count, a.key_count, a.content_hash
FROM animations a JOIN files f ON f.id = a.file_id JOIN dumps d ON d.id = f.dump_id;

-- Which bones each animation moves, with its character and dump.
CREATE VIEW IF NOT EXISTS bone_usage AS
SELECT d.label AS dump, f.character, f.path, a.motion_id, a.name AS animation_name, t.bone_id, t.bone_name,
       t.channels, t.key_count
FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id;

-- Reports (v7). Every animation with its owner (the character, else the file) and the key a diff
-- matches it by within its file: the motion ID (KH2 nested sets: "parent/motion"), else its name,
-- else "#slot".
CREATE VIEW IF NOT EXISTS animation_catalog AS
SELECT d.label AS dump, f.path, COALESCE(f.character, f.path) AS owner, f.format, a.id AS animation_id,
       a.slot, a.motion_id,
       COALESCE((SELECT printf('%d/', s.parent_slot) FROM mset_slots s
                 WHERE s.animation_id = a.id AND s.parent_slot IS NOT NULL LIMIT 1), '') ||
       CASE WHEN a.motion_id IS NOT NULL THEN printf('%d', a.motion_id)
            WHEN a.name IS NOT NULL THEN a.name
            ELSE printf('#%d', COALESCE(a.slot, 0)) END AS animation_key,
       a.name, a.frame_count, a.track_count, a.key_count, a.content_hash, a.shape_hash
FROM animations a JOIN files f ON f.id = a.file_id JOIN dumps d ON d.id = f.dump_id;

-- Identical animations (same content hash) found in two or more files of a dump.
CREATE VIEW IF NOT EXISTS reuse_groups AS
SELECT dump, content_hash, COUNT(*) AS animation_count, COUNT(DISTINCT path) AS file_count,
       COUNT(DISTINCT owner) AS owner_count, MIN(name) AS name, MIN(motion_id) AS motion_id,
       MAX(track_count) AS track_count, MAX(key_count) AS key_count
FROM animation_catalog
GROUP BY dump, content_hash
HAVING COUNT(DISTINCT path) >= 2;

-- The same bone track (same content hash, bone included) inside animations that differ.
CREATE VIEW IF NOT EXISTS track_reuse AS
SELECT d.label AS dump, t.content_hash, MIN(t.bone_id) AS bone_id, MIN(t.bone_name) AS bone_name,
       MIN(t.channels) AS channels, MIN(t.key_count) AS key_count, COUNT(DISTINCT a.id) AS animation_count,
       COUNT(DISTINCT a.content_hash) AS distinct_animations, COUNT(DISTINCT COALESCE(f.character, f.path)) AS owner_count
FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
GROUP BY d.label, t.content_hash
HAVING COUNT(DISTINCT a.content_hash) >= 2;
