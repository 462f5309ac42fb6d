-- description: How many animations of each character (or file) animate each bone: the cells of the docs heatmap.
-- param: dump text  Dump label
SELECT COALESCE(f.character, f.path) AS character, f.format, t.bone_id, COUNT(DISTINCT a.id) AS animations
FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
WHERE d.label = :dump AND t.bone_id IS NOT NULL
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
