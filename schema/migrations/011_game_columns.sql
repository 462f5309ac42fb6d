-- Migration to schema version 11: answers never mix games. The views over animations and bone
-- tracks gain `game` (the game whose bone and motion numbers a file uses, or the format for a format
-- tied to no game), and `track_reuse` groups by it; schema.sql recreates them.
DROP VIEW IF EXISTS animation_overview;
DROP VIEW IF EXISTS bone_usage;
DROP VIEW IF EXISTS animation_catalog;
DROP VIEW IF EXISTS reuse_groups;
DROP VIEW IF EXISTS track_reuse;
