-- description: Every animation ID present, its purpose where known, and the characters that have it.
-- param: dump text = NULL  Only this dump label (default: every dump)
WITH present AS (
  SELECT DISTINCT a.motion_id, COALESCE(f.character, f.path) AS character
  FROM animations a
  JOIN files f ON f.id = a.file_id
  JOIN dumps d ON d.id = f.dump_id
  WHERE a.motion_id IS NOT NULL AND (:dump IS NULL OR d.label = :dump)
)
SELECT p.motion_id,
       printf('0x%04X', p.motion_id) AS motion_hex,
       (SELECT r.purpose FROM ref_animation_purposes r WHERE r.motion_id = p.motion_id ORDER BY r.game LIMIT 1) AS purpose,
       COUNT(*) AS character_count,
       (SELECT group_concat(character, ', ')
          FROM (SELECT q.character FROM present q WHERE q.motion_id = p.motion_id ORDER BY q.character)) AS characters
FROM present p
GROUP BY p.motion_id
ORDER BY p.motion_id;
