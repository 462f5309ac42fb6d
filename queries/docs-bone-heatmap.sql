-- description: How many animations of each character (or file) animate each bone, per game (bone numbers belong to a game's skeletons; a format without one stands alone): the cells of the docs heatmap.
-- param: dump text  Dump label
SELECT COALESCE(f.character, f.path) AS character, COALESCE(r.game, f.format) AS game, t.bone_id,
       COUNT(DISTINCT a.id) AS animations
FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id LEFT JOIN ref_formats r ON r.format = f.format
WHERE d.label = :dump AND t.bone_id IS NOT NULL
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
