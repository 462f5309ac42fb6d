-- Migration to schema version 17: `files.stored_hash`, the hash of a compressed member's stored
-- bytes, so that a re-index of a changed disc image keeps its unchanged members without
-- decompressing them (issue 40). Members indexed before have none: the next re-index decompresses
-- them once more, as before, and records it.
ALTER TABLE files ADD COLUMN stored_hash TEXT;
