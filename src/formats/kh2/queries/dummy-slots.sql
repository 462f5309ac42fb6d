-- description: KH2 motion-set slots that are dummies (no data), with the slot the engine plays instead (-1: T-pose).
-- formats: kh2_mset, kh2_bar
-- param: file text = NULL  Only files whose path contains this text (default: every file)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- param: numbering text = code  Motion-name numbering: code (OpenKh MotionSet.cs, default) or doc (dbg/motion.bin order)
SELECT d.label AS dump, f.path AS file, s.parent_slot, s.slot, s.motion_id,
       COALESCE(n.name, s.motion_name) AS motion_name, s.state, r.resolved_slot
FROM mset_slots s
JOIN files f ON f.id = s.file_id
JOIN dumps d ON d.id = f.dump_id
LEFT JOIN mset_resolution r
  ON r.file_id = s.file_id AND r.parent_slot IS s.parent_slot AND r.motion_id = s.motion_id AND r.state IS s.state
LEFT JOIN ref_motion_names n ON n.game = 'kh2' AND n.numbering = :numbering AND n.motion_id = s.motion_id
WHERE s.is_dummy = 1
  AND s.set_type IS NOT NULL
  AND (:file IS NULL OR instr(f.path, :file) > 0)
  AND (:dump IS NULL OR d.label = :dump)
ORDER BY d.label, f.path, s.parent_slot IS NOT NULL, s.parent_slot, s.slot;
