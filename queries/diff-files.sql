-- description: Files added, removed or changed (content hash or status) between two dumps of this database, by path.
-- param: from text  Label of the older dump
-- param: to text  Label of the newer dump
WITH a AS (SELECT f.path, f.format, f.status, f.content_hash FROM files f JOIN dumps d ON d.id = f.dump_id WHERE d.label = :from),
     b AS (SELECT f.path, f.format, f.status, f.content_hash FROM files f JOIN dumps d ON d.id = f.dump_id WHERE d.label = :to)
SELECT path, format, 'removed' AS change FROM a WHERE path NOT IN (SELECT path FROM b)
UNION ALL
SELECT path, format, 'added' FROM b WHERE path NOT IN (SELECT path FROM a)
UNION ALL
SELECT b.path, b.format, 'changed' FROM a JOIN b ON a.path = b.path
WHERE a.content_hash IS NOT b.content_hash OR a.status <> b.status
ORDER BY 1;
