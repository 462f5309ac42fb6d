-- Migration to schema version 14: `files.compression` loses its CHECK of five codec names, so a
-- container folder that registers a new codec (containers/container_registry.cpp) needs no
-- migration; the writer stores only registered ids (issue 36). SQLite cannot drop a CHECK: the
-- column is made again, last as before, with its values. The views are made again by schema.sql.
DROP VIEW IF EXISTS file_catalog;
DROP VIEW IF EXISTS animation_overview;
DROP VIEW IF EXISTS bone_usage;
DROP VIEW IF EXISTS animation_catalog;
DROP VIEW IF EXISTS reuse_groups;
DROP VIEW IF EXISTS track_reuse;
DROP VIEW IF EXISTS nitro_links;
ALTER TABLE files RENAME COLUMN compression TO compression_v13;
ALTER TABLE files ADD COLUMN compression TEXT;
UPDATE files SET compression = compression_v13 WHERE compression_v13 IS NOT NULL;
ALTER TABLE files DROP COLUMN compression_v13;
