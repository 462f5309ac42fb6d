-- description: Files that could not be parsed, with the error (offset and what was wrong).
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT d.label AS dump, f.path, f.format, f.error
FROM files f
JOIN dumps d ON d.id = f.dump_id
WHERE f.status = 'error'
  AND (:dump IS NULL OR d.label = :dump)
ORDER BY d.label, f.path;
