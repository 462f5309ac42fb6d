-- Run by `index` after it has written a dump (`temp.indexing_dump` holds its id), unchanged files
-- included: links each DS animation of the dump to its model (nitro_tables.sql, `nitro_model_links`)
-- and names the nodes of NSBCA and NSBVA tracks after the model's (`bone_tracks.bone_name`): BCA0
-- tag i and BVA0 bit column i animate model node i (nitro-models-and-anims.md section 2).
DELETE FROM nitro_model_links WHERE animation_id IN (
  SELECT a.id FROM animations a JOIN files f ON f.id = a.file_id WHERE f.dump_id = (SELECT id FROM temp.indexing_dump));

WITH
-- Where a file sits: its container, else its folder.
place(file_id, place) AS (
  SELECT id, CASE WHEN parent_id IS NOT NULL THEN 'in:' || parent_id ELSE 'dir:' || rtrim(path, replace(path, '/', '')) END
  FROM files WHERE dump_id = (SELECT id FROM temp.indexing_dump)),
models AS (
  SELECT p.place, m.file_id, m.model_index, m.name, m.node_count FROM nitro_models m JOIN place p ON p.file_id = m.file_id),
animations_here AS (
  SELECT a.id AS animation_id, a.name, p.place,
         CASE f.format WHEN 'nsbca' THEN (SELECT COUNT(*) FROM node_states n WHERE n.animation_id = a.id)
                       WHEN 'nsbva' THEN (SELECT COUNT(*) FROM bone_tracks t WHERE t.animation_id = a.id) END AS node_count
  FROM animations a JOIN files f ON f.id = a.file_id JOIN place p ON p.file_id = f.id
  WHERE f.format IN ('nsbca', 'nsbva', 'nsbta', 'nsbtp', 'nsbma')),
by_name AS (
  SELECT x.animation_id, COUNT(*) AS candidates, MIN(m.file_id) AS file_id, MIN(m.model_index) AS model_index,
         MIN(m.node_count) AS node_count
  FROM animations_here x JOIN models m ON m.place = x.place AND m.name = x.name
                                      AND (x.node_count IS NULL OR x.node_count <= m.node_count)
  GROUP BY x.animation_id),
by_node_count AS (
  SELECT x.animation_id, COUNT(*) AS candidates, MIN(m.file_id) AS file_id, MIN(m.model_index) AS model_index
  FROM animations_here x JOIN models m ON m.place = x.place AND m.node_count = x.node_count
  GROUP BY x.animation_id)
INSERT INTO nitro_model_links(animation_id, model_file_id, model_index, method, exact)
SELECT x.animation_id,
       CASE WHEN n.candidates = 1 THEN n.file_id WHEN c.candidates = 1 THEN c.file_id END,
       CASE WHEN n.candidates = 1 THEN n.model_index WHEN c.candidates = 1 THEN c.model_index END,
       CASE WHEN n.candidates = 1 THEN 'name' WHEN c.candidates = 1 THEN 'node_count' ELSE 'none' END,
       CASE WHEN x.node_count IS NULL THEN NULL
            WHEN n.candidates = 1 THEN x.node_count = n.node_count
            WHEN c.candidates = 1 THEN 1 END
FROM animations_here x
LEFT JOIN by_name n ON n.animation_id = x.animation_id
LEFT JOIN by_node_count c ON c.animation_id = x.animation_id;

UPDATE bone_tracks SET bone_name = (
  SELECT mn.name FROM nitro_model_links l
  JOIN model_nodes mn ON mn.file_id = l.model_file_id AND mn.model_index = l.model_index AND mn.node_index = bone_tracks.bone_id
  WHERE l.animation_id = bone_tracks.animation_id)
WHERE animation_id IN (
  SELECT a.id FROM animations a JOIN files f ON f.id = a.file_id
  WHERE f.dump_id = (SELECT id FROM temp.indexing_dump) AND f.format IN ('nsbca', 'nsbva'));
