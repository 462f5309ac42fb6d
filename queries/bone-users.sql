-- description: Characters (or files without a character) whose animations animate a bone, per game (bone numbers belong to a game's skeletons), with the bone's name where the game's reference (or, for DS animations, the linked model) knows it and how many animations animate it.
-- param: bone int|text  Bone ID, decimal or 0x-hex (e.g. 118 or 0x76), or a bone's name (e.g. world_root): by name it answers in every game and DS file that names a bone so
-- param: game text = NULL  Only this game (gnt4, kh2) or format tied to no game (nsbca, ...): the `game` column (default: every game, each row saying which)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- example: -p bone 0x76
SELECT u.game,
       COALESCE(u.character, u.path) AS character,
       COALESCE((SELECT b.name FROM ref_bone_names b WHERE b.game = u.game AND b.bone_id = u.bone_id),
                MIN(u.bone_name)) AS bone_name,
       COUNT(DISTINCT u.animation_id) AS animations
FROM (SELECT DISTINCT o.game, o.character, o.path, o.animation_id, t.bone_id, t.bone_name
      -- By number through the bone index; by name (a text value only) through the names.
      FROM (SELECT animation_id, bone_id, bone_name FROM bone_tracks WHERE bone_id = :bone
            UNION ALL
            SELECT animation_id, bone_id, bone_name FROM bone_tracks
            WHERE typeof(:bone) = 'text' AND bone_name = :bone AND bone_id IS NOT NULL) t
      JOIN animation_overview o ON o.animation_id = t.animation_id
      WHERE (:dump IS NULL OR o.dump = :dump) AND (:game IS NULL OR o.game = :game)) u
GROUP BY u.game, 2
ORDER BY u.game, 2;
