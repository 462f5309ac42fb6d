-- description: Characters found in the dumps, with their names, file and animation counts.
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT f.character,
       (SELECT c.name FROM ref_characters c WHERE c.code = f.character ORDER BY c.game LIMIT 1) AS name,
       COUNT(DISTINCT f.id) AS files,
       COALESCE(SUM(f.animation_count), 0) AS animations,
       SUM(f.status = 'error') AS errors
FROM files f
JOIN dumps d ON d.id = f.dump_id
WHERE f.character IS NOT NULL
  AND f.status <> 'unknown'
  AND (:dump IS NULL OR d.label = :dump)
GROUP BY f.character
ORDER BY f.character;
