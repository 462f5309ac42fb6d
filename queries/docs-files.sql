-- description: Wiki table: every file of a dump with its format, status, size, animation count and error.
-- param: dump text  Dump label
SELECT f.path, f.format, f.status, f.size, f.animation_count AS animations, f.error
FROM files f JOIN dumps d ON d.id = f.dump_id
WHERE d.label = :dump
ORDER BY f.path;
