-- description: NSBVA visibility animations node by node: the node's name from the linked model, and the frames in which the animation hides it (nodes never hidden are left out). Reads the keys: empty for a dump indexed with --keyframes none.
-- formats: nsbva
-- param: file text = NULL  Only files whose path contains this text (default: every file)
-- param: animation text = NULL  Only this animation name (default: every animation)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- example: -p animation ari_start
WITH spans AS (
  SELECT d.label AS dump, f.path AS file, a.name AS animation, a.frame_count, t.bone_id AS node,
         t.bone_name AS node_name, k.time AS first, k.x AS visible,
         COALESCE(LEAD(k.time) OVER (PARTITION BY t.id ORDER BY k.key_index), a.frame_count) - 1 AS last
  FROM bone_tracks t
  JOIN animations a ON a.id = t.animation_id
  JOIN files f ON f.id = a.file_id
  JOIN dumps d ON d.id = f.dump_id
  JOIN keyframes k ON k.track_id = t.id
  WHERE f.format = 'nsbva' AND t.channels = 'visible'
    AND (:file IS NULL OR instr(f.path, :file) > 0)
    AND (:animation IS NULL OR a.name = :animation)
    AND (:dump IS NULL OR d.label = :dump))
SELECT dump, file, animation, frame_count, node, node_name, SUM(last - first + 1) AS hidden_frames,
       group_concat(CASE WHEN first = last THEN printf('%d', first) ELSE printf('%d-%d', first, last) END, ' ')
         AS hidden_at
FROM spans
WHERE visible = 0
GROUP BY dump, file, animation, node
ORDER BY dump, file, animation, node;
