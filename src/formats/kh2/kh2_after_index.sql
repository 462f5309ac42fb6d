-- Run by `index` after it has written a dump (`temp.indexing_dump` holds its id, and
-- `temp.indexing_changes` the files this run wrote or removed); skipped when the run parsed and
-- removed no file: links KH2 motions of the dump to the skeleton they animate (kh2_tables.sql,
-- `kh2_model_links`) and records what could not be linked as `scan_warnings` (messages starting
-- `skeleton link:`), one per motion file and bone count.
--
-- A link depends on the motion's own file and on the dump's models alone. So when this run wrote or
-- removed no parsed model (`ok`: a model file that failed to parse has no model rows), only the
-- motions of the files it wrote are linked (the others' links and warnings stand); when it did, any
-- motion may now find another model or lose its own, and every motion of the dump is linked again.
CREATE TEMP TABLE IF NOT EXISTS kh2_link_scope (file_id INTEGER PRIMARY KEY);
DELETE FROM temp.kh2_link_scope;
INSERT INTO temp.kh2_link_scope
SELECT f.id FROM files f
WHERE f.dump_id = (SELECT id FROM temp.indexing_dump)
  AND (EXISTS (SELECT 1 FROM temp.indexing_changes WHERE format = 'kh2_mdlx' AND ok)
       OR f.id IN (SELECT file_id FROM temp.indexing_changes));

DELETE FROM kh2_model_links WHERE animation_id IN (
  SELECT a.id FROM animations a WHERE a.file_id IN (SELECT file_id FROM temp.kh2_link_scope));
DELETE FROM scan_warnings WHERE dump_id = (SELECT id FROM temp.indexing_dump) AND message LIKE 'skeleton link: %'
  AND path IN (SELECT f.path FROM files f WHERE f.id IN (SELECT file_id FROM temp.kh2_link_scope));

-- Every model of the dump and every file in scope with motions, by its folder, its name's stem in
-- capitals (`obj/P_EX100_MAGF.mset` -> `P_EX100_MAGF`) and its base object code (the first two `_`
-- parts: `P_EX100`). A member's folder is inside its container (`KH2.IDX/obj/`), so "the same folder" is also "the same container".
CREATE TEMP TABLE IF NOT EXISTS kh2_link_names (
  file_id INTEGER PRIMARY KEY, path TEXT, folder TEXT, stem TEXT, base TEXT);
DELETE FROM temp.kh2_link_names;
-- A linked motion finds its model's file id by path: indexed, so linking is not motions x files.
CREATE INDEX IF NOT EXISTS temp.kh2_link_names_by_path ON kh2_link_names(path);
WITH
split AS (
  SELECT f.id AS file_id, f.path, rtrim(f.path, replace(f.path, '/', '')) AS folder
  FROM files f WHERE f.dump_id = (SELECT id FROM temp.indexing_dump)
    AND (f.id IN (SELECT file_id FROM kh2_models)
         OR (f.id IN (SELECT file_id FROM temp.kh2_link_scope)
             AND EXISTS (SELECT 1 FROM animations a JOIN kh2_motions k ON k.animation_id = a.id WHERE a.file_id = f.id)))),
named AS (
  SELECT file_id, path, folder, substr(path, length(folder) + 1) AS file_name FROM split),
stems AS (
  SELECT file_id, path, folder,
         upper(CASE WHEN rtrim(file_name, replace(file_name, '.', '')) = '' THEN file_name
                    ELSE substr(file_name, 1, length(rtrim(file_name, replace(file_name, '.', ''))) - 1) END) AS stem
  FROM named)
INSERT INTO temp.kh2_link_names
SELECT file_id, path, folder, stem,
       CASE WHEN instr(substr(stem, instr(stem, '_') + 1), '_') > 0 AND instr(stem, '_') > 0
            THEN substr(stem, 1, instr(stem, '_') + instr(substr(stem, instr(stem, '_') + 1), '_') - 1)
            ELSE stem END
FROM stems;

-- The dump's character models, by the names a motion looks for.
CREATE TEMP TABLE IF NOT EXISTS kh2_link_models (
  file_id INTEGER, path TEXT, folder TEXT, stem TEXT, bone_count INTEGER, skeleton_hash TEXT);
DELETE FROM temp.kh2_link_models;
CREATE INDEX IF NOT EXISTS temp.kh2_link_models_by_name ON kh2_link_models(stem, bone_count);
INSERT INTO temp.kh2_link_models
SELECT n.file_id, n.path, n.folder, n.stem, m.bone_count, m.skeleton_hash
FROM kh2_models m JOIN temp.kh2_link_names n ON n.file_id = m.file_id WHERE m.skeleton_hash IS NOT NULL;

-- Per motion, the first step (1 folder + own name, 2 folder + base code, 3 dump + own name, 4 dump
-- + base code) with a candidate, how many different skeletons it has, and the first model's path.
CREATE TEMP TABLE IF NOT EXISTS kh2_link_steps (
  animation_id INTEGER PRIMARY KEY, path TEXT, stem TEXT, base TEXT, bone_count INTEGER, step INTEGER,
  skeletons INTEGER, model_path TEXT);
DELETE FROM temp.kh2_link_steps;
WITH
motions AS (
  SELECT a.id AS animation_id, n.path, n.folder, n.stem, n.base, k.bone_count
  FROM kh2_motions k JOIN animations a ON a.id = k.animation_id JOIN temp.kh2_link_names n ON n.file_id = a.file_id
  WHERE a.file_id IN (SELECT file_id FROM temp.kh2_link_scope)),
steps(step) AS (VALUES (1), (2), (3), (4)),
candidates AS (
  SELECT x.animation_id, s.step, COUNT(DISTINCT m.skeleton_hash) AS skeletons, MIN(m.path) AS model_path
  FROM motions x JOIN steps s
  JOIN temp.kh2_link_models m ON m.stem = CASE WHEN s.step IN (1, 3) THEN x.stem ELSE x.base END
                             AND m.bone_count = x.bone_count AND (s.step > 2 OR m.folder = x.folder)
  GROUP BY x.animation_id, s.step),
deciding AS (
  SELECT animation_id, MIN(step) AS step FROM candidates GROUP BY animation_id)
INSERT INTO temp.kh2_link_steps
SELECT x.animation_id, x.path, x.stem, x.base, x.bone_count, d.step, COALESCE(c.skeletons, 0), c.model_path
FROM motions x
LEFT JOIN deciding d ON d.animation_id = x.animation_id
LEFT JOIN candidates c ON c.animation_id = x.animation_id AND c.step = d.step;

INSERT INTO kh2_model_links(animation_id, model_file_id, method, skeletons)
SELECT s.animation_id,
       CASE WHEN s.skeletons = 1 THEN (SELECT n.file_id FROM temp.kh2_link_names n WHERE n.path = s.model_path) END,
       CASE WHEN s.skeletons <> 1 THEN 'none' WHEN s.step = 1 THEN 'folder_own_name' WHEN s.step = 2 THEN 'folder_base_code'
            WHEN s.step = 3 THEN 'dump_own_name' ELSE 'dump_base_code' END,
       s.skeletons
FROM temp.kh2_link_steps s;

INSERT INTO scan_warnings(dump_id, path, message)
SELECT (SELECT id FROM temp.indexing_dump), path,
       CASE WHEN skeletons = 0
            THEN printf('skeleton link: %d motion%s of %d bones: no model %s with %d bones in the folder or the dump; not linked',
                        COUNT(*), CASE WHEN COUNT(*) = 1 THEN '' ELSE 's' END, bone_count,
                        CASE WHEN stem = base THEN stem ELSE stem || ' or ' || base END, bone_count)
            ELSE printf('skeleton link: %d motion%s of %d bones: %d different skeletons fit (models named %s); none is taken',
                        COUNT(*), CASE WHEN COUNT(*) = 1 THEN '' ELSE 's' END, bone_count, skeletons,
                        CASE WHEN step IN (1, 3) THEN stem ELSE base END) END
FROM temp.kh2_link_steps WHERE skeletons <> 1
GROUP BY path, bone_count, skeletons, step
ORDER BY path, bone_count;
