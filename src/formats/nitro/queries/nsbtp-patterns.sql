-- description: Texture-pattern animations (nsbtp) material by material (one track each, so its position is the track's): how many keys switch its texture, between which textures (distinct names in the order the keys first show them) and palettes (keys with palette 255 keep the palette and add none). Reads the keys: empty for a dump indexed with --keyframes none.
-- formats: nsbtp
-- param: file text = NULL  Only files whose path contains this text (default: every file)
-- param: animation text = NULL  Only this animation name (default: every animation)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- example: -p file a/2/4/6
WITH pattern_keys AS (
  SELECT t.id AS track_id, k.key_index, tn.name AS texture, pn.name AS palette
  FROM bone_tracks t
  JOIN animations a ON a.id = t.animation_id
  JOIN files f ON f.id = a.file_id
  JOIN dumps d ON d.id = f.dump_id
  JOIN keyframes k ON k.track_id = t.id
  LEFT JOIN pattern_names tn ON tn.animation_id = t.animation_id AND tn.kind = 'texture' AND tn.name_index = k.x
  LEFT JOIN pattern_names pn ON pn.animation_id = t.animation_id AND pn.kind = 'palette' AND pn.name_index = k.y
  WHERE f.format = 'nsbtp' AND t.channels = 'pattern'
    AND (:file IS NULL OR instr(f.path, :file) > 0)
    AND (:animation IS NULL OR a.name = :animation)
    AND (:dump IS NULL OR d.label = :dump)
)
SELECT d.label AS dump, f.path AS file, a.name AS animation, a.frame_count, t.track_index AS material_index,
       t.bone_name AS material, t.key_count AS keys,
       (SELECT COUNT(DISTINCT texture) FROM pattern_keys p WHERE p.track_id = t.id) AS texture_count,
       (SELECT group_concat(texture, ', ') FROM (SELECT texture, MIN(key_index) AS first_key FROM pattern_keys p
          WHERE p.track_id = t.id GROUP BY texture ORDER BY first_key)) AS textures,
       (SELECT group_concat(palette, ', ') FROM (SELECT palette, MIN(key_index) AS first_key FROM pattern_keys p
          WHERE p.track_id = t.id AND palette IS NOT NULL GROUP BY palette ORDER BY first_key)) AS palettes
FROM bone_tracks t
JOIN animations a ON a.id = t.animation_id
JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
WHERE t.id IN (SELECT track_id FROM pattern_keys)
ORDER BY d.label, f.path, a.id, t.track_index;
