-- description: A character's animations: file, animation ID, purpose, length and size.
-- param: character text  Character code (the folder under chr/, e.g. nar)
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT d.label AS dump,
       f.path,
       a.motion_id,
       printf('0x%04X', a.motion_id) AS motion_hex,
       a.name AS purpose,
       a.frame_count,
       a.track_count,
       a.key_count
FROM animations a
JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
WHERE f.character = :character
  AND (:dump IS NULL OR d.label = :dump)
ORDER BY d.label, f.path, a.motion_id;
