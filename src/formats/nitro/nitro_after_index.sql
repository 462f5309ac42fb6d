-- Run by `index` after it has written a dump (`temp.indexing_dump` holds its id, and
-- `temp.indexing_changes` the files this run wrote or removed); skipped when the run parsed and
-- removed no file (nothing it reads changed: a new build re-parses every file, as its build id
-- differs): links DS animations of the dump to their model (nitro_tables.sql, `nitro_model_links`),
-- names the nodes of NSBCA and NSBVA tracks after the model's (`bone_tracks.bone_name`): BCA0 tag i
-- and BVA0 bit column i animate model node i (nitro-models-and-anims.md section 2), and records what
-- the note asks to warn about as `scan_warnings` (messages starting `model link:`).
--
-- A link depends on the animation's own file, on the models beside it and on the container both
-- are in (a NARC member's place is its archive's row id, which a changed archive keeps: it is
-- updated in place, and a member whose bytes changed is written again). So when this run wrote or
-- removed no parsed model (`ok`: a model file that failed to parse has no model rows), only the
-- animations of the files it wrote are linked (the others' links, node names and warnings stand);
-- when it did, every animation of the dump is linked again.
CREATE TEMP TABLE IF NOT EXISTS nitro_link_scope (file_id INTEGER PRIMARY KEY);
DELETE FROM temp.nitro_link_scope;
INSERT INTO temp.nitro_link_scope
SELECT f.id FROM files f
WHERE f.dump_id = (SELECT id FROM temp.indexing_dump)
  AND (EXISTS (SELECT 1 FROM temp.indexing_changes WHERE format = 'nsbmd' AND ok)
       OR f.id IN (SELECT file_id FROM temp.indexing_changes));

DELETE FROM nitro_model_links WHERE animation_id IN (
  SELECT a.id FROM animations a WHERE a.file_id IN (SELECT file_id FROM temp.nitro_link_scope));
DELETE FROM scan_warnings WHERE dump_id = (SELECT id FROM temp.indexing_dump) AND message LIKE 'model link: %'
  AND path IN (SELECT f.path FROM files f WHERE f.id IN (SELECT file_id FROM temp.nitro_link_scope));

CREATE TEMP TABLE IF NOT EXISTS nitro_candidates (
  animation_id INTEGER PRIMARY KEY, path TEXT, name TEXT, node_count INTEGER,
  named INTEGER, named_fitting INTEGER, named_file_id INTEGER, named_model_index INTEGER, named_node_count INTEGER,
  counted INTEGER, counted_file_id INTEGER, counted_model_index INTEGER);
DELETE FROM temp.nitro_candidates;

WITH
-- Where a file sits: a NARC member in its archive (the unit the converter writes), any other file
-- in its folder (a DS ROM's folders; `rtrim` by the path's own non-slash characters drops its last
-- component).
place(file_id, place) AS (
  SELECT f.id, CASE WHEN p.format = 'narc' THEN 'in:' || f.parent_id
                    ELSE 'dir:' || rtrim(f.path, replace(f.path, '/', '')) END
  FROM files f LEFT JOIN files p ON p.id = f.parent_id
  WHERE f.dump_id = (SELECT id FROM temp.indexing_dump)),
models AS (
  SELECT p.place, m.file_id, m.model_index, m.name, m.node_count FROM nitro_models m JOIN place p ON p.file_id = m.file_id),
animations_here AS (
  SELECT a.id AS animation_id, f.path, a.name, p.place,
         CASE f.format WHEN 'nsbca' THEN (SELECT COUNT(*) FROM node_states n WHERE n.animation_id = a.id)
                       WHEN 'nsbva' THEN (SELECT COUNT(*) FROM bone_tracks t WHERE t.animation_id = a.id) END AS node_count
  FROM animations a JOIN files f ON f.id = a.file_id JOIN place p ON p.file_id = f.id
  WHERE f.format IN ('nsbca', 'nsbva', 'nsbta', 'nsbtp', 'nsbma') AND f.id IN (SELECT file_id FROM temp.nitro_link_scope)),
-- Models of the animation's name; `fitting` those with at least its nodes (more animation nodes than
-- model nodes is a runtime assert).
by_name AS (
  SELECT x.animation_id, COUNT(*) AS named,
         SUM(x.node_count IS NULL OR x.node_count <= m.node_count) AS fitting,
         MIN(m.file_id) AS file_id, MIN(m.model_index) AS model_index, MIN(m.node_count) AS node_count
  FROM animations_here x JOIN models m ON m.place = x.place AND m.name = x.name
  GROUP BY x.animation_id),
by_node_count AS (
  SELECT x.animation_id, COUNT(*) AS counted, MIN(m.file_id) AS file_id, MIN(m.model_index) AS model_index
  FROM animations_here x JOIN models m ON m.place = x.place AND m.node_count = x.node_count
  GROUP BY x.animation_id)
INSERT INTO temp.nitro_candidates
SELECT x.animation_id, x.path, x.name, x.node_count, n.named, n.fitting, n.file_id, n.model_index, n.node_count,
       c.counted, c.file_id, c.model_index
FROM animations_here x
LEFT JOIN by_name n ON n.animation_id = x.animation_id
LEFT JOIN by_node_count c ON c.animation_id = x.animation_id;

-- The one model of the animation's name; with none of its name, the one model with its node count
-- (node animations); anything else (a model of its name that does not fit, several): no model.
INSERT INTO nitro_model_links(animation_id, model_file_id, model_index, method, exact)
SELECT animation_id,
       CASE WHEN named = 1 AND named_fitting = 1 THEN named_file_id WHEN named IS NULL AND counted = 1 THEN counted_file_id END,
       CASE WHEN named = 1 AND named_fitting = 1 THEN named_model_index
            WHEN named IS NULL AND counted = 1 THEN counted_model_index END,
       CASE WHEN named = 1 AND named_fitting = 1 THEN 'name' WHEN named IS NULL AND counted = 1 THEN 'node_count'
            ELSE 'none' END,
       CASE WHEN node_count IS NULL THEN NULL
            WHEN named = 1 AND named_fitting = 1 THEN node_count = named_node_count
            WHEN named IS NULL AND counted = 1 THEN 1 END
FROM temp.nitro_candidates;

INSERT INTO scan_warnings(dump_id, path, message)
SELECT (SELECT id FROM temp.indexing_dump), path,
       CASE WHEN named > 1 THEN printf('model link: %d models named ''%s'' beside the animation; none is taken', named, name)
            ELSE printf('model link: animation ''%s'' has %d nodes, more than its model''s %d; not linked', name,
                        node_count, named_node_count) END
FROM temp.nitro_candidates WHERE named > 1 OR (named = 1 AND named_fitting = 0);

-- BCA0 tag i should name node i (its top byte); the runtime would evaluate tag `byte` for node i.
INSERT INTO scan_warnings(dump_id, path, message)
SELECT f.dump_id, f.path,
       printf('model link: animation ''%s'' tag %d names node %d; node %d is named as its position says', a.name,
              n.node_index, n.node_id, n.node_index)
FROM node_states n JOIN animations a ON a.id = n.animation_id JOIN files f ON f.id = a.file_id
WHERE f.id IN (SELECT file_id FROM temp.nitro_link_scope) AND n.node_id <> n.node_index;

UPDATE bone_tracks SET bone_name = (
  SELECT mn.name FROM nitro_model_links l
  JOIN model_nodes mn ON mn.file_id = l.model_file_id AND mn.model_index = l.model_index AND mn.node_index = bone_tracks.bone_id
  WHERE l.animation_id = bone_tracks.animation_id)
WHERE animation_id IN (
  SELECT a.id FROM animations a JOIN files f ON f.id = a.file_id
  WHERE f.id IN (SELECT file_id FROM temp.nitro_link_scope) AND f.format IN ('nsbca', 'nsbva'));
