-- Migration to schema version 11: answers never mix games. The views over animations and bone
-- tracks gain `game` (the game whose bone and motion numbers a file uses, or the format for a format
-- tied to no game), and `track_reuse` groups by it; schema.sql recreates them. Numbers stored
-- before v11 are rewritten under the number rule (a float32-exact value becomes the double nearest
-- to its shortest decimal), so a migrated dump compares and diffs like a new one; the key tables
-- apply the rule when they are read.
DROP VIEW IF EXISTS animation_overview;
DROP VIEW IF EXISTS bone_usage;
DROP VIEW IF EXISTS animation_catalog;
DROP VIEW IF EXISTS reuse_groups;
DROP VIEW IF EXISTS track_reuse;
UPDATE animations SET play_speed = animdex_as_stored(play_speed), end_time = animdex_as_stored(end_time);
UPDATE bone_tracks SET total_time = animdex_as_stored(total_time);
