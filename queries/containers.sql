-- description: Disc images and archives, with their members counted by format and status (members of members are counted under their own container).
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT d.label AS dump, c.path AS container, c.format AS container_format, c.status AS container_status,
       m.format AS member_format, m.status AS member_status, COUNT(m.id) AS members,
       SUM(m.size) AS bytes, SUM(m.animation_count) AS animations,
       SUM(m.compression IS NOT NULL AND m.compression <> 'none') AS compressed
FROM files c
JOIN dumps d ON d.id = c.dump_id
LEFT JOIN files m ON m.parent_id = c.id
WHERE c.format IN (SELECT format FROM ref_formats WHERE kind = 'container')
  AND (:dump IS NULL OR d.label = :dump)
GROUP BY c.id, m.format, m.status
ORDER BY d.label, c.path, m.format, m.status;
