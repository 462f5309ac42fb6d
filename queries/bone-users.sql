-- description: Characters (or files without a character) whose animations animate a bone, per game (bone numbers belong to a game's skeletons), with the bone's name where the game's reference (or, for DS animations, the linked model) knows it and how many animations animate it.
-- param: bone int|text  Bone ID, decimal or 0x-hex (e.g. 118 or 0x76), or a bone's name (e.g. hip), or a name pattern with % (e.g. head%, any case): by name it answers in every game and DS file that names a bone so
-- param: game text = NULL  Only this game (gnt4, kh2) or format tied to no game (nsbca, ...): the `game` column (default: every game, each row saying which)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- example: -p bone 0x76
-- The matching tracks, read from the index `bone_tracks_by_bone` (bone, animation, name) alone: by
-- number through its first column; by name (a text value only) through the names. They are counted
-- per file first, so a file, its dump and its game are looked up once, not once per animation (half
-- the time on the bench's 10x database: 11.8 ms against 19 ms for bone 118).
WITH o AS (
  SELECT d.label AS dump, f.id AS file_id, f.path, f.character,
         COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format) AS game,  -- as animation_overview
         u.bone_id, u.bone_name, u.animations
  -- bone_id is a bare column: by number every row carries the one asked; by name it is not shown.
  FROM (SELECT a.file_id, t.bone_id, MIN(t.bone_name) AS bone_name, COUNT(DISTINCT t.animation_id) AS animations
        FROM (SELECT animation_id, bone_id, bone_name FROM bone_tracks WHERE bone_id = :bone
              UNION ALL
              SELECT animation_id, bone_id, bone_name FROM bone_tracks
              WHERE typeof(:bone) = 'text' AND bone_id IS NOT NULL
                AND (bone_name = :bone OR (instr(:bone, '%') > 0 AND bone_name LIKE :bone))) t
        JOIN animations a ON a.id = t.animation_id
        GROUP BY a.file_id) u
  JOIN files f ON f.id = u.file_id JOIN dumps d ON d.id = f.dump_id
  WHERE (:dump IS NULL OR d.label = :dump)),
-- For a pattern, every name it matched in each owner's files (hair base, hair1, ...), not one per
-- file: read again per matching file, through bone_tracks_by_animation.
matched AS (
  SELECT game, owner, group_concat(bone_name, ', ') AS names
  FROM (SELECT DISTINCT o.game, COALESCE(o.character, o.path) AS owner, t.bone_name
        FROM o JOIN animations a ON a.file_id = o.file_id JOIN bone_tracks t ON t.animation_id = a.id
        WHERE typeof(:bone) = 'text' AND instr(:bone, '%') > 0 AND t.bone_id IS NOT NULL AND t.bone_name LIKE :bone
        ORDER BY 1, 2, 3)
  GROUP BY game, owner)
SELECT o.game,
       COALESCE(o.character, o.path) AS character,
       -- By name: the name asked (several bone ids may carry it), or for a pattern the names it matched;
       -- by number: the reference's, else the file's.
       CASE WHEN typeof(:bone) = 'text' AND instr(:bone, '%') = 0 THEN :bone
            WHEN typeof(:bone) = 'text' THEN (SELECT m.names FROM matched m
                                              WHERE m.game = o.game AND m.owner = COALESCE(o.character, o.path))
            ELSE COALESCE((SELECT b.name FROM ref_bone_names b WHERE b.game = o.game AND b.bone_id = o.bone_id),
                          MIN(o.bone_name)) END AS bone_name,
       SUM(o.animations) AS animations
FROM o
WHERE (:game IS NULL OR o.game = :game)
GROUP BY o.game, 2
ORDER BY o.game, 2;
