-- description: Wiki table: each character (or file without one) of a dump, per game, its name, its animation files and counts.
-- param: dump text  Dump label
-- Per game: a character code names a character of its own game only (GNT4 folder, KH2 object).
SELECT COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game,
       COALESCE(f.character, f.path) AS character,
       (SELECT c.name FROM ref_characters c WHERE c.code = f.character
          AND c.game = (SELECT r.game FROM ref_formats r WHERE r.format = f.format)) AS name,
       group_concat(f.path, ', ') AS files,
       COALESCE(SUM(f.animation_count), 0) AS animations,
       SUM(f.status = 'error') AS errors
FROM (SELECT * FROM files ORDER BY path) f
JOIN dumps d ON d.id = f.dump_id
WHERE d.label = :dump AND f.status <> 'unknown'
GROUP BY 1, 2
ORDER BY 1, 2;
