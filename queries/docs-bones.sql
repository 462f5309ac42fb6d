-- description: Wiki table: bone ID -> name -> the characters that animate it and how many animations do, per format.
-- param: dump text  Dump label
WITH used AS (
  SELECT DISTINCT f.format, t.bone_id, t.bone_name, COALESCE(f.character, f.path) AS owner, a.id AS animation_id
  FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id
  JOIN dumps d ON d.id = f.dump_id
  WHERE d.label = :dump AND t.bone_id IS NOT NULL
)
-- A DS node number names a different node in each model: one name where all agree, else one and a count.
SELECT u.format, u.bone_id,
       CASE WHEN COUNT(DISTINCT u.bone_name) <= 1 THEN MIN(u.bone_name)
            ELSE printf('%s (and %d other names)', MIN(u.bone_name), COUNT(DISTINCT u.bone_name) - 1) END AS bone_name,
       COUNT(DISTINCT u.owner) AS character_count,
       COUNT(DISTINCT u.animation_id) AS animations,
       (SELECT group_concat(owner, ', ') FROM (SELECT DISTINCT v.owner FROM used v
          WHERE v.format = u.format AND v.bone_id = u.bone_id ORDER BY v.owner)) AS characters
FROM used u
GROUP BY u.format, u.bone_id
ORDER BY u.format, u.bone_id;
