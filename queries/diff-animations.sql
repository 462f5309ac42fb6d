-- description: Animations added, removed or changed between two dumps of this database, matched by path and animation key (a key used twice in a file is matched in order); `animdex diff` runs this same query.
-- param: from text  Label of the older dump
-- param: to text  Label of the newer dump
WITH a AS MATERIALIZED (SELECT owner, match_path AS path, animation_key, name, content_hash, animation_id,
                               ROW_NUMBER() OVER (PARTITION BY path, animation_key ORDER BY animation_id) AS occurrence
                        FROM animation_catalog WHERE dump = :from),
     b AS MATERIALIZED (SELECT owner, match_path AS path, animation_key, name, content_hash, animation_id,
                               ROW_NUMBER() OVER (PARTITION BY path, animation_key ORDER BY animation_id) AS occurrence
                        FROM animation_catalog WHERE dump = :to)
SELECT a.owner AS character, a.path, a.animation_key AS animation, a.name, 'removed' AS change,
       a.animation_id AS from_animation_id, NULL AS to_animation_id
FROM a LEFT JOIN b ON b.path = a.path AND b.animation_key = a.animation_key AND b.occurrence = a.occurrence
WHERE b.path IS NULL
UNION ALL
SELECT b.owner, b.path, b.animation_key, b.name, 'added', NULL, b.animation_id
FROM b LEFT JOIN a ON a.path = b.path AND a.animation_key = b.animation_key AND a.occurrence = b.occurrence
WHERE a.path IS NULL
UNION ALL
SELECT b.owner, b.path, b.animation_key, b.name, 'changed', a.animation_id, b.animation_id
FROM a JOIN b ON a.path = b.path AND a.animation_key = b.animation_key AND a.occurrence = b.occurrence
WHERE a.content_hash <> b.content_hash
ORDER BY 1, 2, 3;
