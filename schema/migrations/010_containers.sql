-- Migration to schema version 10: members of disc images and archives. A file found in a folder
-- keeps NULL in the new columns; the views gain `match_path` (schema.sql recreates them).
ALTER TABLE files ADD COLUMN parent_id INTEGER REFERENCES files(id) ON DELETE CASCADE;
ALTER TABLE files ADD COLUMN member_name TEXT;
ALTER TABLE files ADD COLUMN member_offset INTEGER;
ALTER TABLE files ADD COLUMN stored_size INTEGER;
ALTER TABLE files ADD COLUMN compression TEXT CHECK (compression IN ('none', 'prs', 'lz10', 'lz11', 'kh2'));
ALTER TABLE dumps ADD COLUMN root_container TEXT;
-- ref_formats is reloaded by every index from the build's registries: schema.sql recreates it with `kind`.
DROP TABLE IF EXISTS ref_formats;
DROP VIEW IF EXISTS file_catalog;
DROP VIEW IF EXISTS animation_catalog;
