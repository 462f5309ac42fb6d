-- description: Characters found in the dumps, per game, with their names (from the game's character table), file and animation counts.
-- param: dump text = NULL  Only this dump label (default: every dump)
-- param: game text = NULL  Only this game (gnt4, kh2) or format tied to no game: the `game` column (default: every game)
-- example: -p dump ntsc
WITH owned AS (
  SELECT f.id, f.character, f.animation_count, f.status,
         COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game
  FROM files f JOIN dumps d ON d.id = f.dump_id
  WHERE f.character IS NOT NULL AND f.status <> 'unknown' AND (:dump IS NULL OR d.label = :dump)
)
SELECT o.game,
       o.character,
       (SELECT c.name FROM ref_characters c WHERE c.game = o.game AND c.code = o.character) AS name,
       COUNT(DISTINCT o.id) AS files,
       COALESCE(SUM(o.animation_count), 0) AS animations,
       SUM(o.status = 'error') AS errors
FROM owned o
WHERE (:game IS NULL OR o.game = :game)
GROUP BY o.game, o.character
ORDER BY o.game, o.character;
