-- description: A character's animations: file, slot (KH2: which state of a motion it is), animation ID, purpose, length and size.
-- param: character text  Character code (the folder under chr/, e.g. nar, or a KH2 object code, e.g. P_EX100)
-- param: game text = NULL  Only this game (gnt4, kh2) or format tied to no game: the `game` column (default: every game)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- example: -p character nar
SELECT o.dump,
       o.game,
       o.path,
       o.slot,
       o.motion_id,
       printf('0x%04X', o.motion_id) AS motion_hex,
       o.name AS purpose,
       o.frame_count,
       o.track_count,
       o.key_count
FROM animation_overview o
WHERE o.character = :character
  AND (:game IS NULL OR o.game = :game)
  AND (:dump IS NULL OR o.dump = :dump)
ORDER BY o.dump, o.game, o.path, o.slot, o.motion_id;
