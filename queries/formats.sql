-- description: Files per format and status, for one dump or all.
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT f.format, f.status, COUNT(*) AS files, SUM(f.size) AS bytes, SUM(f.animation_count) AS animations
FROM files f
JOIN dumps d ON d.id = f.dump_id
WHERE (:dump IS NULL OR d.label = :dump)
GROUP BY f.format, f.status
ORDER BY f.format, f.status;
