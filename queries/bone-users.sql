-- description: Characters (or files without a character) whose animations animate a bone, with how many animations do.
-- param: bone int  Bone ID, decimal or 0x-hex (e.g. 118 or 0x76)
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT COALESCE(f.character, f.path) AS character,
       COUNT(DISTINCT a.id) AS animations
FROM bone_tracks t
JOIN animations a ON a.id = t.animation_id
JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
WHERE t.bone_id = :bone
  AND (:dump IS NULL OR d.label = :dump)
GROUP BY 1
ORDER BY 1;
