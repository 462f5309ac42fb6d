-- description: Files added, removed or changed (content hash or status) between two dumps of this database, by path; `animdex diff` runs this same query.
-- param: from text  Label of the older dump
-- param: to text  Label of the newer dump
WITH a AS MATERIALIZED (SELECT match_path AS path, format, status, content_hash FROM file_catalog WHERE dump = :from AND match_path <> ''),
     b AS MATERIALIZED (SELECT match_path AS path, format, status, content_hash FROM file_catalog WHERE dump = :to AND match_path <> '')
SELECT a.path, a.format, 'removed' AS change FROM a LEFT JOIN b ON b.path = a.path WHERE b.path IS NULL
UNION ALL
SELECT b.path, b.format, 'added' FROM b LEFT JOIN a ON a.path = b.path WHERE a.path IS NULL
UNION ALL
SELECT b.path, b.format, 'changed' FROM a JOIN b ON a.path = b.path
WHERE a.content_hash IS NOT b.content_hash OR a.status <> b.status
ORDER BY 1;
