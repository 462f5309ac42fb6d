-- description: Wiki table: every slot of every KH2 motion set of a dump, with dummies and the slot the engine plays.
-- param: dump text  Dump label
-- param: numbering text = code  Motion-name numbering: code (default) or doc
SELECT f.path AS file, s.parent_slot, s.slot, s.entry_name, s.entry_type_name AS entry_type, s.motion_id,
       COALESCE(n.name, s.motion_name) AS motion_name, s.state,
       CASE WHEN s.is_dummy = 1 THEN 'dummy' ELSE '' END AS dummy,
       r.resolved_slot, s.duplicate_of
FROM mset_slots s
JOIN files f ON f.id = s.file_id
JOIN dumps d ON d.id = f.dump_id
LEFT JOIN mset_resolution r
  ON r.file_id = s.file_id AND r.parent_slot IS s.parent_slot AND r.motion_id = s.motion_id AND r.state IS s.state
LEFT JOIN ref_motion_names n ON n.game = 'kh2' AND n.numbering = :numbering AND n.motion_id = s.motion_id
WHERE d.label = :dump AND s.set_type IS NOT NULL
ORDER BY f.path, s.parent_slot IS NOT NULL, s.parent_slot, s.slot;
