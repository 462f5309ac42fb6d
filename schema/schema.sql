-- # animdex database schema
--
-- Schema version **@SCHEMA_VERSION@** (`PRAGMA user_version`: the version a new database has; the page is
-- generated with the number the build holds), `PRAGMA application_id = 0x414E4458` ('ANDX').
-- This page is generated from [`schema.sql`](schema.sql), where every table and column is declared
-- once with its comment (`animdex schema > schema/README.md` writes it; a test fails when the two
-- differ). Reference data comes from [`reference/*.tsv`](reference/). Both are embedded into the
-- binary at build time. `animdex index` writes in WAL mode, so readers can query while it runs, and
-- leaves the file in DELETE mode (one file, nothing beside it); a dump becomes visible only when its
-- index run commits.
--
-- Conventions: IDs are stored as plain integers (query with `0x76` or `118` alike: the CLI binds
-- 0x-hex values of `int` parameters as integers). Times are in the format's native unit (GNT:
-- seconds, frame = time x 60). Hashes are XXH3-64 as 16 lowercase hex digits.
--
-- How this file documents itself: a comment block right above a `CREATE` describes the table or
-- view; a comment after a column describes the column (comment-only lines after it continue it);
-- a comment block right after a table's closing line adds notes; a view lists its columns as
-- `column NAME: meaning` lines in its comment; other comment blocks are copied as they are.
-- Applied by `animdex index` when it creates a database; all statements are idempotent. A database
-- at an older version is brought here by `migrations/NNN_*.sql` (NNN = the target version).

PRAGMA application_id = 1095648344;  -- 0x414E4458 'ANDX': marks the file as an animdex database

-- ## Data tables

-- One row per `--label`. Indexing a label again updates its dump in one transaction: files whose size
-- and modification time (or, failing that, content hash) are unchanged keep their rows, changed and new
-- files are parsed, vanished ones are removed (`--full` re-parses everything).
CREATE TABLE IF NOT EXISTS dumps (
  id            INTEGER PRIMARY KEY,    -- row id
  label         TEXT NOT NULL UNIQUE,   -- the dump's name, unique (e.g. `ntsc`, `pal`, `vanilla`)
  root          TEXT NOT NULL,          -- absolute root folder(s) given to `index`; several are joined by a newline
  indexed_at    TEXT NOT NULL,          -- UTC time the run finished, ISO 8601
  file_count    INTEGER NOT NULL DEFAULT 0,  -- files recorded for the dump
  error_count   INTEGER NOT NULL DEFAULT 0,  -- files whose status is `error`
  tool_version  TEXT NOT NULL DEFAULT '',    -- animdex version that wrote the dump
  build_id      TEXT,  -- hash of the build's version, schema, reference tables and queries (v4); a re-index
                       -- by another build re-parses every file
  keyframe_storage TEXT NOT NULL DEFAULT 'blob',  -- how its keys are stored (v4): `blob` (the default since v9: one
                                                 -- packed `bone_tracks.keys` per track), `rows` (`index --keyframes rows`:
                                                 -- a row per key in `keyframe_rows` and `key_spline_rows`) or `none`
                                                 -- (`--keyframes none`: tracks and counts only). `keyframes` and
                                                 -- `key_splines` read `blob` and `rows` alike
  root_container TEXT  -- when the only root given to `index` is a disc image or archive: its path (v10). Its
                         -- members are matched across dumps by their paths inside it (`match_path` of
                         -- `file_catalog`), so `ntsc.iso` and `pal.iso` diff member by member; else NULL
);

-- Every file found under the roots, animation file or not (FIFOs, sockets and devices too, unread).
CREATE TABLE IF NOT EXISTS files (
  id              INTEGER PRIMARY KEY,  -- row id
  dump_id         INTEGER NOT NULL REFERENCES dumps(id) ON DELETE CASCADE,  -- the dump (`dumps.id`)
  path            TEXT NOT NULL,  -- path relative to the root, `/`-separated; with several roots it starts
                                  -- with the root's folder name (made unique with `~2`, `~3`, ...)
  character       TEXT,  -- the folder after a `chr` folder in the path (GNT character code, e.g. `nar`);
                         -- KH2: `NAME` of `obj/NAME.mset` (e.g. `P_EX100`, Sora), or of a `NAME.mset`
                         -- elsewhere when the KH2 object table knows NAME in any case (stored as the
                         -- table spells it); else NULL
  format          TEXT NOT NULL,  -- detected from the bytes: a format's or a container's id (the
                                  -- registries' lists below; `animdex formats`), or `unknown`
  size            INTEGER NOT NULL,  -- size in bytes (0 for FIFOs, sockets and devices)
  mtime_ns        INTEGER,  -- modification time, nanoseconds since the Unix epoch
  content_hash    TEXT,  -- XXH3-64 of the whole file; NULL if it was not read (unreadable, special, or
                         -- over `--max-file-size`)
  status          TEXT NOT NULL CHECK (status IN ('ok', 'error', 'unknown')),  -- `ok` (parsed), `error` (a
                  -- known format that failed to parse, or an unreadable file), `unknown` (not an animation file)
  error           TEXT,  -- why the file is not `ok`: for `error`, what was wrong, e.g. `at offset 0xC: expected
                         -- the file size 0x42D8 (17112 bytes), found 0x85B0`; for `unknown`, e.g. `no known
                         -- format: first bytes 53 30 ...` or `not a regular file (FIFO); not read`
  error_offset    INTEGER,  -- the byte offset the error names, when there is one
  animation_count INTEGER NOT NULL DEFAULT 0,  -- animations parsed from the file
  parse_ms        REAL,  -- milliseconds spent parsing the file (v2); NULL when it was not parsed (unknown
                         -- format, unreadable, too large)
  parent_id       INTEGER REFERENCES files(id) ON DELETE CASCADE,  -- a member's enclosing container (v10): disc
                  -- image, archive (`gcm`, `fpk`, `narc`, ...); NULL for a file found in a folder. A member's
                  -- `path` is its container's path, `/`, and its path inside it
                  -- (`gnt4.iso/fpack/chr/nar1000.fpk/chr/nar/0000.mot`)
  member_name     TEXT,  -- a member's name as its container stores it (v10): the truncated FPK name
                         -- (`hr/nar/0000.mot`), a nameless NARC's index, KH2's `@HHHHHHHH-HHHH` hashes
  member_offset   INTEGER,  -- where a member's stored bytes start in its container's data (v10): disc offset,
                            -- archive offset, KH2.IMG offset (block x 2048)
  stored_size     INTEGER,  -- a member's stored (compressed) bytes (v10); `size` is after decompression
  compression     TEXT,  -- how a member is stored (v10): a codec's id (the registries' list below) or
                         -- `none`; NULL for a file found in a folder. Open since v14: a new codec needs no
                         -- migration
  stored_hash     TEXT,  -- XXH3-64 of the stored bytes of a member its container stores compressed (v17), as
                         -- they are before decompression: a re-index compares it (with `size` and
                         -- `stored_size`) and keeps an unchanged member without decompressing it. NULL for
                         -- a member stored as is (`content_hash` is of the same bytes), a DS member found
                         -- to be LZ by its bytes (its archive does not say), a file found in a folder
                         -- (compressed or not), an error, and a member larger than `--max-file-size`
  UNIQUE (dump_id, path)
);
CREATE INDEX IF NOT EXISTS files_by_character ON files(character);
CREATE INDEX IF NOT EXISTS files_by_hash ON files(content_hash);
CREATE INDEX IF NOT EXISTS files_by_parent ON files(parent_id);

-- What the walk passed over without recording a file (v2): symbolic link loops and aliases of folders
-- already visited, dangling symbolic links, folder listings that stopped early; and warnings from
-- parsing a file that did not stop the parse (LightWave sanity checks: T/C/B outside [-1, 1], v3
-- rotations that look like degrees, unknown lines inside an envelope, padded Key lines, ...).
CREATE TABLE IF NOT EXISTS scan_warnings (
  dump_id  INTEGER NOT NULL REFERENCES dumps(id) ON DELETE CASCADE,  -- the dump (`dumps.id`)
  path     TEXT NOT NULL,  -- relative path of the link, folder or file, as in `files.path`
  message  TEXT NOT NULL   -- what was passed over and why
);
CREATE INDEX IF NOT EXISTS scan_warnings_by_dump ON scan_warnings(dump_id);

-- One row per animation (GNT: per non-empty slot of the `.mot`).
CREATE TABLE IF NOT EXISTS animations (
  id            INTEGER PRIMARY KEY,  -- row id
  file_id       INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  slot          INTEGER,  -- position in the container (GNT: the slot index)
  motion_id     INTEGER,  -- the ID the game asks for (GNT: the animation ID, equal to the slot)
  name          TEXT,  -- GNT: the animation's purpose from `ref_animation_purposes`, NULL when unknown;
                       -- LightWave and Kuper: the file name without its extension
  play_speed    REAL,  -- GNT: GNTA header float at 0x08 ("play speed")
  end_time      REAL,  -- GNT: GNTA header float at 0x0C, seconds; NSBCA: last frame (frame count - 1);
                       -- LightWave: time of the last key (v1 frames, v3 seconds); Kuper: last frame index;
                       -- KH2: the last frame played (`kh2_motions.frame_end`)
  frame_count   INTEGER,  -- GNT: `round(end_time * 60)`; LightWave v1: last frame - first frame + 1 (NULL
                          -- for v3, whose frame rate is not in the file); Kuper: frame lines
  track_count   INTEGER NOT NULL,  -- bone tracks in the animation
  key_count     INTEGER NOT NULL,  -- keys over all its tracks
  content_hash  TEXT NOT NULL,  -- hash of the decoded content (header values, every track, and the format's own
                                -- rows that describe it: `kh2_motions`, `node_states`), not of its position: the
                                -- same animation has the same hash in any file, slot or offset
  shape_hash    TEXT   -- hash of the structure only: each track's bone, channels and key times, not the
                       -- values. Animations with the same `shape_hash` and different `content_hash` are
                       -- candidates for "near-identical" (v7)
);
-- KH2 specifics: one row per *distinct* motion of a file. Slots that share data (same offset and
-- size) point at the same row through `mset_slots.animation_id`. `slot` and `motion_id` are those of
-- the first slot holding the motion (inside a nested motion set: its slot in that set); `name` is the
-- motion's name in the code numbering of `ref_motion_names` (bare ANBs and motions: the file name);
-- `frame_count` is the header's FrameCount (60 fps frames).
CREATE INDEX IF NOT EXISTS animations_by_file ON animations(file_id);
CREATE INDEX IF NOT EXISTS animations_by_motion ON animations(motion_id);
CREATE INDEX IF NOT EXISTS animations_by_hash ON animations(content_hash);
CREATE INDEX IF NOT EXISTS animations_by_shape ON animations(shape_hash);

-- One row per animated bone of an animation (GNT: per bone-animation header).
CREATE TABLE IF NOT EXISTS bone_tracks (
  id            INTEGER PRIMARY KEY,  -- row id
  animation_id  INTEGER NOT NULL REFERENCES animations(id) ON DELETE CASCADE,  -- the animation (`animations.id`)
  track_index   INTEGER NOT NULL,  -- order of the track in the file
  bone_id       INTEGER,  -- GNT: bone ID as an unsigned 16-bit number (0xFFFF is stored as 65535); NULL for
                          -- LightWave and Kuper channels
  bone_name     TEXT,  -- from `ref_bone_names` (name, else the .jcv name), NULL when unknown
  flags         INTEGER NOT NULL,  -- GNT: flags1 (0x0202 = 16-bit coordinates, 0x0204 = f32 coordinates,
                                   -- 0x0000 = times only)
  track_flags   INTEGER NOT NULL,  -- GNT: TRANSLATE 0x01, SCALE 0x02, ROTATE 0x08, ENABLED 0x20, DISABLED 0x40
  channels      TEXT NOT NULL,  -- GNT: channel letters from `track_flags`, in the order T, R, S (e.g. `R`,
                                -- `TS`), empty when none is set; LightWave: the channel's name (`x`, `y`, `z`,
                                -- `heading`, `pitch`, `bank`, `sx`, `sy`, `sz`, `channelN` past 8, `value` for
                                -- envelopes); Kuper: the axis name
  value_encoding TEXT NOT NULL,  -- how key values were stored: `bf16x4` (upper halves of f32), `f32x4`, `none`
                                 -- (GNT time-only track), `ascii` (LightWave, Kuper)
  key_count     INTEGER NOT NULL,  -- keys in the track
  total_time    REAL,  -- GNT: bone header float at 0x08, seconds (time of the last key in GNTool-made files)
  content_hash  TEXT NOT NULL,  -- hash of the track's decoded content, bone ID included: equal tracks in
                                -- different animations share it. Not indexed since v9 (a tenth of the database
                                -- for a lookup that `report reuse` does in one pass)
  keys          BLOB  -- the track's keys and splines packed as columns (v9; layout in src/db/key_blob.h), each
                      -- in the narrowest width that keeps every value exactly; read them through `keyframes` and
                      -- `key_splines`. NULL when the dump stores keys as rows or not at all
);
-- KH2 interpolated motions: one row per curve (forward curves first, then inverse/IK curves).
-- `bone_id` is the curve's joint (inverse curves: `bone_count` + IK helper index, their place in the
-- joint table); `channels` names the axis (`Sx` `Sy` `Sz` `Rx` `Ry` `Rz` `Tx` `Ty` `Tz`); `flags` is
-- the curve's packed byte (bits 0-3 channel, 4-5 pre-cycle, 6-7 post-cycle); `track_flags` is 0 for a
-- forward curve and 1 for an inverse curve; `value_encoding` is `kh2_fcurve`. Static channels (the
-- motion's initial pose) are not tracks. KH2 raw motions: three rows per bone, `T`, `R`, `S`
-- (`track_flags` 0x01, 0x08, 0x02 as GNT's), `value_encoding` `f32x16_matrix`, decomposed from the
-- stored 4x4 matrices.
--
-- NSBCA: per node (`bone_id` = the node's index among the animation's tags), one row per channel
-- group that is constant or animated: `T`, `R`, `S` (`track_flags` 0x01, 0x08, 0x02); identity and
-- base (bind pose) groups have no row, their state is in `node_states`. `flags` is the node's tag
-- word; `value_encoding` is `fx16`, `fx32` or `fx16+fx32` for T/S, `rotation_index` for R;
-- `bone_name` is the node's name in the model the animation is linked to (`nitro_links`), NULL when none.
--
-- NSBVA (v12): one `visible` row per node (`bone_id` = node index, named as NSBCA's), `value_encoding`
-- `bit`. NSBTA, NSBTP, NSBMA (v12): rows per material (`bone_id` NULL: a material is not a bone;
-- `bone_name` = its name as the file gives it): NSBTA `scale`, `rotation`, `translation`
-- (`fx16`, `fx32`, `fx16+fx32`; rotation `sincos16`); NSBTP `pattern` (`pattern`); NSBMA `diffuse`,
-- `ambient`, `specular`, `emission` (`rgb555`) and `alpha` (`u8`).
CREATE INDEX IF NOT EXISTS bone_tracks_by_animation ON bone_tracks(animation_id);
-- Index `bone_tracks_by_bone (bone_id, animation_id, bone_name)` (v13: with the name), so `bone-users`
-- answers from the index alone.
CREATE INDEX IF NOT EXISTS bone_tracks_by_bone ON bone_tracks(bone_id, animation_id, bone_name);

-- Decoded keys of every track, one row per key (v9: a virtual table of the module `animdex_keys`, which
-- animdex registers and other SQLite programs load as an extension: README "Keys in other tools"). It
-- reads `bone_tracks.keys`, or `keyframe_rows` for dumps indexed with `--keyframes rows`; `WHERE track_id
-- = ?` (or a join on it) reads one track. Read-only.
-- column track_id: the track (`bone_tracks.id`)
-- column key_index: 0-based position of the key
-- column time: key time as stored (GNT: f32 seconds, widened exactly to a double; LightWave v1: frame; v3: seconds; Kuper: frame index)
-- column frame: GNT: `round(time * 60)`; LightWave v1 and Kuper: the frame; NULL for LightWave v3
-- column x: decoded value (GNT: 16-bit values are decoded exactly as `bits << 16` reinterpreted as f32; NULL for time-only tracks); LightWave and Kuper: the channel's value (v1 angles in degrees, v3 in radians)
-- column y: as `x` (NULL for LightWave and Kuper)
-- column z: as `x`
-- column w: as `x` (GNT rotations: twist angle in degrees about X, per the viewers)
CREATE VIRTUAL TABLE IF NOT EXISTS keyframes USING animdex_keys(keyframes);
-- KH2 interpolated keys: `time` is the key-time table entry (the motion's own time unit; 60 fps frames
-- in retail files), `frame` is NULL and `x` is the value (rotations in radians). KH2 raw keys: `time`
-- and `frame` are the stored frame index; `T` keys hold the translation in `x`, `y`, `z`; `R` keys the
-- rotation as a quaternion `x`, `y`, `z`, `w` (System.Numerics convention, row vectors); `S` keys the
-- scale (a mirrored basis gives a negative `x`).
--
-- NSBCA keys: one per stored sample, `time` = `frame` = the sample's frame (0, s, 2s, ... then every
-- frame after LAST_INTERP for steps 2 and 4); a constant group has one key at frame 0. `T` keys hold
-- the translation in `x`, `y`, `z` and `S` keys the scale (fixed point / 4096; an axis that is constant
-- inside an animated group is repeated on every key). `R` keys hold the decoded rotation as a unit
-- quaternion `x`, `y`, `z`, `w` of the DS matrix (row vectors, as System.Numerics); `animdex pose`
-- prints the 3x3 matrix itself. Euler angles are not stored.
--
-- Other Nitro keys (v12), `time` = `frame` = the frame: NSBVA a key at frame 0 and at every change,
-- `x` 1 shown / 0 hidden. NSBTA and NSBMA one per stored sample as NSBCA (a constant channel: one key
-- at frame 0): NSBTA `scale` and `translation` (S, T) in `x`, `y`, `rotation` sin and cos in `x`, `y`
-- (fixed point / 4096); NSBMA colours R, G, B in `x`, `y`, `z` and `alpha` in `x` (0..31). NSBTP one
-- per stored key: texture index in `x`, palette index in `y` (255: the palette is left as it is); the
-- names are in `pattern_names`.

-- Keys of dumps indexed with `--keyframes rows` (v9; before v9 this was the table `keyframes`), the
-- columns of `keyframes`. `WITHOUT ROWID`, keyed by (`track_id`, `key_index`).
CREATE TABLE IF NOT EXISTS keyframe_rows (
  track_id   INTEGER NOT NULL REFERENCES bone_tracks(id) ON DELETE CASCADE,  -- the track (`bone_tracks.id`)
  key_index  INTEGER NOT NULL,  -- as `keyframes.key_index`
  time       REAL NOT NULL,     -- as `keyframes.time`
  frame      INTEGER,           -- as `keyframes.frame`
  x REAL,  -- as `keyframes.x`
  y REAL,  -- as `keyframes.y`
  z REAL,  -- as `keyframes.z`
  w REAL,  -- as `keyframes.w`
  PRIMARY KEY (track_id, key_index)
) WITHOUT ROWID;

-- Spline data of curve formats, one row per key, parallel to `keyframes` (v3; a virtual table since v9,
-- like `keyframes`). LightWave keys (`lw_mot`, `lw_env`) and KH2 curve keys have them; GNT, Kuper and
-- KH2 raw keys do not. KH2 keys use the same shape codes for their interpolation (constant = 4 stepped,
-- linear = 3, hermite = 1), with the in-tangent in `p1` and the out-tangent in `p2` (hermite keys; 0
-- otherwise).
-- column track_id: the track (`bone_tracks.id`)
-- column key_index: the key (`keyframes.key_index`)
-- column shape: shape of the span that ends at this key: 0 TCB, 1 Hermite, 2 1D Bezier, 3 linear, 4 stepped, 5 2D Bezier (v1 files: 3 when the linear flag is 1, else 0)
-- column linear_flag: LightWave v1 only: the key line's linear flag; NULL for v3
-- column p1: v3: TCB/Hermite tension, 2D Bezier in-handle time offset; v1: tension
-- column p2: v3: continuity, or 2D Bezier in-handle value offset; v1: continuity
-- column p3: v3: bias, or 2D Bezier out-handle time offset; v1: bias
-- column p4: v3: incoming tangent as LightWave wrote it (TCB: informational), or 2D Bezier out-handle value offset; v1: 0
-- column p5: v3: outgoing tangent as written; v1: 0
-- column p6: v3: as written (0); v1: 0
CREATE VIRTUAL TABLE IF NOT EXISTS key_splines USING animdex_keys(key_splines);

-- Spline data of dumps indexed with `--keyframes rows` (v9; before v9 this was the table `key_splines`),
-- the columns of `key_splines`.
CREATE TABLE IF NOT EXISTS key_spline_rows (
  track_id     INTEGER NOT NULL REFERENCES bone_tracks(id) ON DELETE CASCADE,  -- the track (`bone_tracks.id`)
  key_index    INTEGER NOT NULL,  -- as `key_splines.key_index`
  shape        INTEGER NOT NULL,  -- as `key_splines.shape`
  linear_flag  INTEGER,  -- as `key_splines.linear_flag`
  p1 REAL,  -- as `key_splines.p1`
  p2 REAL,  -- as `key_splines.p2`
  p3 REAL,  -- as `key_splines.p3`
  p4 REAL,  -- as `key_splines.p4`
  p5 REAL,  -- as `key_splines.p5`
  p6 REAL,  -- as `key_splines.p6`
  PRIMARY KEY (track_id, key_index)
) WITHOUT ROWID;

-- ## Skeletons
-- The bones of every model a format reads (DS `nsbmd`, KH2 `kh2_mdlx`): what an animation's bone or
-- node ids address, and the bind pose a pose starts from. Each format's model table (`nitro_models`,
-- `kh2_models`) says which models a file holds.

-- One row per node (bone) of a model (v12; every format's since v15): its name, its parent and its
-- bind pose. NSBCA and NSBVA animations address DS nodes by `node_index`; KH2 motions address bones by it.
CREATE TABLE IF NOT EXISTS model_nodes (
  file_id      INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,  -- the file (`files.id`)
  model_index  INTEGER NOT NULL,  -- the model in its file (`nitro_models.model_index`; 0 for KH2)
  node_index   INTEGER NOT NULL,  -- DS: position in the model's node dictionary; KH2: the bone record's position; from 0
  name         TEXT,  -- the node's name, e.g. `world_root`; NULL where the format names none (KH2)
  parent       INTEGER,  -- `node_index` of its parent (DS: the NODEDESC command); NULL for a root
  visible      INTEGER,  -- DS: default visibility from the NODE command (1 shown, 0 hidden); NULL when none
  flag         INTEGER NOT NULL,  -- as stored: DS the bind-pose record's flag word; KH2 the bone's flags (bit 0
                                  -- no_envelop, bit 1 not_joint)
  t_x          REAL NOT NULL,  -- bind-pose translation (model units; 0 when the record stores none)
  t_y          REAL NOT NULL,  -- as `t_x`, y axis
  t_z          REAL NOT NULL,  -- as `t_x`, z axis
  rotation     TEXT NOT NULL,  -- how the rotation is stored: DS `identity`, `pivot` (two values and a pivot) or
                               -- `matrix` (3x3); KH2 `euler_xyz` (`e_x`, `e_y`, `e_z`)
  q_x          REAL NOT NULL,  -- the rotation as a unit quaternion (x, y, z, w), float32: DS (it holds the fixed
                               -- point exactly); KH2 made from the Euler angles, q = qz * qy * qx
  q_y          REAL NOT NULL,  -- as `q_x`: y
  q_z          REAL NOT NULL,  -- as `q_x`: z
  q_w          REAL NOT NULL,  -- as `q_x`: w
  s_x          REAL NOT NULL,  -- bind-pose scale (1 when the record stores none)
  s_y          REAL NOT NULL,  -- as `s_x`, y axis
  s_z          REAL NOT NULL,  -- as `s_x`, z axis
  e_x          REAL,  -- KH2: the rotation as stored, Euler angle about x in radians (applied first); NULL for DS
  e_y          REAL,  -- as `e_x`, about y (applied second)
  e_z          REAL,  -- as `e_x`, about z (applied last)
  PRIMARY KEY (file_id, model_index, node_index)
) WITHOUT ROWID;

-- ## Format tables
-- What only one format has lives in that format's folder, next to its parser
-- (`src/formats/<format>/<format>_tables.sql`), declared the same way; `index` applies every one of
-- them after this file.

-- ## Reference tables
-- Loaded from the TSV files in `schema/reference/` on every index run (they replace the previous
-- contents), so a corrected name reaches the database with the next `animdex index` after a rebuild.

-- The formats this build detects (v8), from its format registry (`animdex formats`): join a file's
-- `format` here to know which game's bone and motion numbers it uses, so answers never mix games.
CREATE TABLE IF NOT EXISTS ref_formats (
  format       TEXT PRIMARY KEY,  -- `files.format`
  game         TEXT,  -- the game its numbers belong to (`gnt4`, `kh2`), the `game` of the other reference
                      -- tables; NULL when the format has no reference data
  description  TEXT NOT NULL,  -- one line on the format
  id_style     TEXT NOT NULL CHECK (id_style IN ('hex', 'decimal')),  -- how its community writes motion IDs
  kind         TEXT NOT NULL DEFAULT 'animation' CHECK (kind IN ('animation', 'container', 'container_data'))
               -- (v10) `container`: a disc image or archive whose members are indexed as files of their own;
               -- `container_data`: a container's data file (KH2.IMG), recorded, not parsed
);

-- From `reference/bone_names.tsv` (mot.md and jcv.md of Naruto-GNT-Modding).
CREATE TABLE IF NOT EXISTS ref_bone_names (
  game      TEXT NOT NULL,     -- `gnt4`
  bone_id   INTEGER NOT NULL,  -- bone ID
  name      TEXT,  -- community name (mot.md); NULL where it is "?"
  alt_name  TEXT,  -- the .jcv joint name (jcv.md), where known
  source    TEXT,  -- where the name comes from
  PRIMARY KEY (game, bone_id)
);

-- From `reference/animation_purposes.tsv` (mot.md, "Character Animation IDs to Purpose").
CREATE TABLE IF NOT EXISTS ref_animation_purposes (
  game       TEXT NOT NULL,     -- `gnt4`
  motion_id  INTEGER NOT NULL,  -- animation ID
  purpose    TEXT NOT NULL,     -- what the game uses it for, e.g. `Throw`
  source     TEXT,              -- where it comes from
  PRIMARY KEY (game, motion_id)
);

-- From `reference/characters.tsv` (GNT4: GNTool's GNT4Characters) and `reference/kh2_objects.tsv`
-- (KH2: the 1,898 objects of OpenKh's obj.md); edit either and rebuild to fix a name. Queries join it
-- by (`game`, `code`), the game from `ref_formats`, so a GNT code never names a KH2 object.
CREATE TABLE IF NOT EXISTS ref_characters (
  game         TEXT NOT NULL,  -- `gnt4`, `kh2`
  code         TEXT NOT NULL,  -- GNT4: folder name under `chr/`; KH2: object code naming its files (`P_EX100`)
  internal_id  INTEGER,        -- the game's character ID (KH2: the object's ID in 00objentry.bin)
  name         TEXT NOT NULL,  -- character name (KH2: with its kind, e.g. `(P) Sora (Wisdom)`)
  source       TEXT,           -- where it comes from
  PRIMARY KEY (game, code)
);

-- From `reference/motion_names.tsv` (v5): KH2 motion IDs with their names in two numberings.
CREATE TABLE IF NOT EXISTS ref_motion_names (
  game       TEXT NOT NULL,  -- `kh2`
  numbering  TEXT NOT NULL,  -- `code`: OpenKh `MotionSet.cs` after commit 2777e27d (the default; e.g. 151 =
                             -- EX000, Sora's basic attack slot 604 / 4); `doc`: position in `dbg/motion.bin`
                             -- (mset.md's table). Identical for 0..73
  motion_id  INTEGER NOT NULL,  -- the ID
  name       TEXT NOT NULL,  -- the name, e.g. `IDLE`, `EX058`
  source     TEXT,           -- where it comes from
  PRIMARY KEY (game, numbering, motion_id)
);

-- ## Views

-- Every file of every dump by its dump's label (v8): what `diff` matches files on.
-- column dump: `dumps.label`
-- column path: `files.path`
-- column format: `files.format`
-- column status: `files.status`
-- column content_hash: `files.content_hash`
-- column match_path: the path `diff` matches across dumps: `path`, or for a dump of one image given alone (`dumps.root_container`) the path inside it (`''` for the image itself)
CREATE VIEW IF NOT EXISTS file_catalog AS
SELECT d.label AS dump, f.path, f.format, f.status, f.content_hash,
       CASE WHEN d.root_container IS NULL THEN f.path WHEN f.path = d.root_container THEN ''
            ELSE substr(f.path, length(d.root_container) + 2) END AS match_path
FROM files f JOIN dumps d ON d.id = f.dump_id;

-- Animations with their file, dump and character: the join most questions start from.
-- column dump: `dumps.label`
-- column path: `files.path`
-- column character: `files.character`
-- column format: `files.format`
-- column game: the game whose bone and motion numbers the file uses (`ref_formats.game`: `gnt4`, `kh2`), or for a format tied to no game the format itself (`nsbca`, `lw_mot`); bone and motion IDs compare only within one `game` (v11)
-- column animation_id: `animations.id`
-- column slot: `animations.slot`
-- column motion_id: `animations.motion_id`
-- column name: `animations.name`
-- column frame_count: `animations.frame_count`
-- column track_count: `animations.track_count`
-- column key_count: `animations.key_count`
-- column content_hash: `animations.content_hash`
CREATE VIEW IF NOT EXISTS animation_overview AS
SELECT d.label AS dump, f.path, f.character, f.format,
       COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game, a.id AS animation_id, a.slot, a.motion_id, a.name,
       a.frame_count, a.track_count, a.key_count, a.content_hash
FROM animations a JOIN files f ON f.id = a.file_id JOIN dumps d ON d.id = f.dump_id;

-- One row per (animation, bone): which bones each animation moves.
-- column dump: `dumps.label`
-- column character: `files.character`
-- column path: `files.path`
-- column game: as in `animation_overview` (v11)
-- column motion_id: `animations.motion_id`
-- column animation_name: `animations.name`
-- column bone_id: `bone_tracks.bone_id`
-- column bone_name: `bone_tracks.bone_name`
-- column channels: `bone_tracks.channels`
-- column key_count: `bone_tracks.key_count`
CREATE VIEW IF NOT EXISTS bone_usage AS
SELECT d.label AS dump, f.character, f.path,
       COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game,
       a.motion_id, a.name AS animation_name, t.bone_id, t.bone_name,
       t.channels, t.key_count
FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id;

-- Every animation with its owner and the key a diff matches it by (v7): the base of `report reuse`,
-- `report docs` and `diff`.
-- column dump: `dumps.label`
-- column path: `files.path`
-- column owner: `files.character`, else `files.path`
-- column format: `files.format`
-- column game: as in `animation_overview` (v11)
-- column animation_id: `animations.id`
-- column slot: `animations.slot`
-- column motion_id: `animations.motion_id`
-- column animation_key: what identifies the animation inside its file across versions: the motion ID (KH2 nested sets: `parent_slot/motion_id`), else the name, else `#slot`
-- column name: `animations.name`
-- column frame_count: `animations.frame_count`
-- column track_count: `animations.track_count`
-- column key_count: `animations.key_count`
-- column content_hash: `animations.content_hash`
-- column shape_hash: `animations.shape_hash`
-- column match_path: the path `diff` matches across dumps: `path`, or for a dump of one image given alone (`dumps.root_container`) the path inside it
CREATE VIEW IF NOT EXISTS animation_catalog AS
SELECT d.label AS dump, f.path, COALESCE(f.character, f.path) AS owner, f.format,
       COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game, a.id AS animation_id,
       a.slot, a.motion_id,
       COALESCE((SELECT printf('%d/', s.parent_slot) FROM mset_slots s
                 WHERE s.animation_id = a.id AND s.parent_slot IS NOT NULL LIMIT 1), '') ||
       CASE WHEN a.motion_id IS NOT NULL THEN printf('%d', a.motion_id)
            WHEN a.name IS NOT NULL THEN a.name
            ELSE printf('#%d', COALESCE(a.slot, 0)) END AS animation_key,
       a.name, a.frame_count, a.track_count, a.key_count, a.content_hash, a.shape_hash,
       CASE WHEN d.root_container IS NULL THEN f.path
            ELSE substr(f.path, length(d.root_container) + 2) END AS match_path
FROM animations a JOIN files f ON f.id = a.file_id JOIN dumps d ON d.id = f.dump_id;

-- Identical animations (same `content_hash`) found in two or more files of a dump (v7).
-- column dump: `dumps.label`
-- column content_hash: the shared content
-- column animation_count: animations with it
-- column file_count: files holding it
-- column owner_count: characters (or files without one) holding it
-- column name: a name it goes by (the smallest)
-- column game: as in `animation_overview`: identical content is grouped within one game (v11)
-- column motion_id: the smallest motion ID it sits at
-- column track_count: its tracks
-- column key_count: its keys
CREATE VIEW IF NOT EXISTS reuse_groups AS
SELECT dump, content_hash, game, COUNT(*) AS animation_count, COUNT(DISTINCT path) AS file_count,
       COUNT(DISTINCT owner) AS owner_count, MIN(name) AS name, MIN(motion_id) AS motion_id,
       MAX(track_count) AS track_count, MAX(key_count) AS key_count
FROM animation_catalog
WHERE track_count > 0  -- an animation without tracks (an empty NSBCA) is not reuse (v16)
GROUP BY dump, content_hash, game
HAVING COUNT(DISTINCT path) >= 2;

-- The same bone track (same `content_hash`, bone included) inside animations that differ (v7),
-- e.g. a hand sign reused by several moves.
-- column dump: `dumps.label`
-- column content_hash: the track's content hash
-- column game: as in `animation_overview`: a bone number means something only within one game (v11)
-- column bone_id: its bone
-- column bone_name: its bone's name
-- column channels: its channels
-- column key_count: its keys
-- column animation_count: animations holding it
-- column distinct_animations: distinct animation contents among them (>= 2)
-- column owner_count: characters (or files) holding it
CREATE VIEW IF NOT EXISTS track_reuse AS
SELECT d.label AS dump, t.content_hash,
       COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game, MIN(t.bone_id) AS bone_id, MIN(t.bone_name) AS bone_name,
       MIN(t.channels) AS channels, MIN(t.key_count) AS key_count, COUNT(DISTINCT a.id) AS animation_count,
       COUNT(DISTINCT a.content_hash) AS distinct_animations, COUNT(DISTINCT COALESCE(f.character, f.path)) AS owner_count
FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
GROUP BY d.label, t.content_hash, 3
HAVING COUNT(DISTINCT a.content_hash) >= 2;

-- ## Versioning
-- `animdex` refuses a database whose `application_id` is not animdex's, and one whose `user_version`
-- is newer than it understands. `index` creates a new database from `schema.sql`; a database at an
-- older version is migrated by `index` in one transaction under the write lock, running
-- `migrations/NNN_*.sql` for every version NNN above its own (then `schema.sql`, which only creates
-- what is missing). `query` and `sql` open databases read-only and ask for an `index` run when the
-- version is older.
--
-- | version | change |
-- |---|---|
-- | 1 | first schema |
-- | 2 | `files.parse_ms`, table `scan_warnings` (`migrations/002_parse_ms_and_scan_warnings.sql`) |
-- | 3 | tables `key_splines`, `track_behaviors` for LightWave curves (`migrations/003_curve_splines.sql`) |
-- | 4 | `dumps.build_id`, `dumps.keyframe_storage` for incremental re-indexing (`migrations/004_incremental_index.sql`) |
-- | 5 | KH2: tables `mset_slots`, `mset_resolution`, `ref_motion_names`; `animations.kind`, `bone_count`, `total_bone_count`, `fps`, `frame_start`, `frame_end`, `frame_return` (`migrations/005_kh2_motion_sets.sql`) |
-- | 6 | NSBCA: table `node_states`, `bone_tracks.state` (`migrations/006_node_states.sql`) |
-- | 7 | reports: `animations.shape_hash`, views `animation_catalog`, `reuse_groups`, `track_reuse` (`migrations/007_reports.sql`) |
-- | 8 | format tables: KH2's `animations.kind` .. `frame_return` move to `kh2_motions`; `bone_tracks.state` is dropped (`node_states` has it); views `file_catalog`, table `ref_formats` (`migrations/008_format_tables.sql`) |
-- | 9 | keys packed per track: `bone_tracks.keys`; index `bone_tracks_by_hash` dropped; tables `keyframes`, `key_splines` renamed `keyframe_rows`, `key_spline_rows`; `keyframes`, `key_splines` become virtual tables over both (`migrations/009_key_blobs.sql`) |
-- | 10 | containers: `files.parent_id`, `member_name`, `member_offset`, `stored_size`, `compression`, index `files_by_parent`; `dumps.root_container`; `match_path` in views `file_catalog`, `animation_catalog` (`migrations/010_containers.sql`) |
-- | 11 | answers never mix games: `game` in views `animation_overview`, `bone_usage`, `animation_catalog`, `reuse_groups`, `track_reuse`, which group by it (`migrations/011_game_columns.sql`) |
-- | 12 | Nintendo DS models and the other Nitro animation kinds: tables `nitro_models`, `model_nodes`, `model_materials`, `nitro_model_links`, `pattern_names`, view `nitro_links` (`src/formats/nitro/nitro_tables.sql`; `migrations/012_nitro_models.sql`) |
-- | 13 | `bone_tracks_by_bone` also holds `bone_name`, so `bone-users` answers from the index alone (`migrations/013_bone_index_names.sql`) |
-- | 14 | `files.compression` without a CHECK of codec names: a container that registers a codec needs no migration (`migrations/014_open_compression.sql`) |
-- | 15 | KH2 models: `model_nodes` declared in this file for every format's skeleton, `name` may be NULL, the Euler angles `e_x`, `e_y`, `e_z`; tables `kh2_models`, `kh2_model_links`, view `kh2_links` (`src/formats/kh2/kh2_tables.sql`; `migrations/015_skeletons.sql`) |
