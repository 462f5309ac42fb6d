-- description: Every animation ID present, per game (motion numbers belong to a game's tables), its purpose where the game's reference knows it, and the characters that have it.
-- param: dump text = NULL  Only this dump label (default: every dump)
-- param: game text = NULL  Only this game (gnt4, kh2) or format tied to no game (nsbca, ...): the `game` column (default: every game, each row saying which)
-- example: -p game gnt4
WITH present AS (
  SELECT DISTINCT o.game, o.motion_id, COALESCE(o.character, o.path) AS character, o.name
  FROM animation_overview o
  WHERE o.motion_id IS NOT NULL AND (:dump IS NULL OR o.dump = :dump) AND (:game IS NULL OR o.game = :game)
)
SELECT p.game,
       p.motion_id,
       printf('0x%04X', p.motion_id) AS motion_hex,
       COALESCE((SELECT r.purpose FROM ref_animation_purposes r WHERE r.game = p.game AND r.motion_id = p.motion_id),
                (SELECT m.name FROM ref_motion_names m
                 WHERE m.game = p.game AND m.numbering = 'code' AND m.motion_id = p.motion_id),
                MIN(p.name)) AS purpose,
       COUNT(DISTINCT p.character) AS character_count,
       (SELECT group_concat(character, ', ')
          FROM (SELECT DISTINCT q.character FROM present q
                WHERE q.game = p.game AND q.motion_id = p.motion_id ORDER BY q.character)) AS characters
FROM present p
GROUP BY p.game, p.motion_id
ORDER BY p.game, p.motion_id;
