-- description: Animations added, removed or changed between two dumps of this database, matched by path and animation key.
-- param: from text  Label of the older dump
-- param: to text  Label of the newer dump
WITH a AS (SELECT * FROM animation_catalog WHERE dump = :from),
     b AS (SELECT * FROM animation_catalog WHERE dump = :to)
SELECT a.owner AS character, a.path, a.animation_key AS animation, a.name, 'removed' AS change
FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.path = a.path AND b.animation_key = a.animation_key)
UNION ALL
SELECT b.owner, b.path, b.animation_key, b.name, 'added'
FROM b WHERE NOT EXISTS (SELECT 1 FROM a WHERE a.path = b.path AND a.animation_key = b.animation_key)
UNION ALL
SELECT b.owner, b.path, b.animation_key, b.name, 'changed'
FROM a JOIN b ON a.path = b.path AND a.animation_key = b.animation_key
WHERE a.content_hash <> b.content_hash
ORDER BY 1, 2, 3;
