-- description: Wiki table: animation ID -> purpose or name -> the characters that have it, per format.
-- param: dump text  Dump label
WITH present AS (
  SELECT DISTINCT c.format, c.motion_id, c.owner, c.name
  FROM animation_catalog c
  WHERE c.dump = :dump AND c.motion_id IS NOT NULL
)
SELECT p.format, p.motion_id,
       CASE WHEN (SELECT id_style FROM ref_formats r WHERE r.format = p.format) = 'hex' THEN printf('0x%04X', p.motion_id)
            ELSE printf('%d', p.motion_id) END AS id,
       MIN(p.name) AS purpose,
       COUNT(DISTINCT p.owner) AS character_count,
       (SELECT group_concat(owner, ', ') FROM (SELECT DISTINCT q.owner FROM present q
          WHERE q.format = p.format AND q.motion_id = p.motion_id ORDER BY q.owner)) AS characters
FROM present p
GROUP BY p.format, p.motion_id
ORDER BY p.format, p.motion_id;
