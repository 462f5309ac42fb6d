-- description: A KH2 file's slots with motion names, states and what each real slot's motion animates (bones, keys).
-- formats: kh2_mset, kh2_bar
-- param: file text = NULL  Only files whose path contains this text (default: every file)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- param: numbering text = code  Motion-name numbering: code (OpenKh MotionSet.cs, default) or doc (dbg/motion.bin order)
-- param: dummies int = 0  1 to list dummy slots too
SELECT d.label AS dump, f.path AS file, s.parent_slot, s.slot, s.entry_name, s.entry_type_name AS entry_type,
       s.motion_id, COALESCE(n.name, s.motion_name) AS motion_name, s.state, s.is_dummy, s.duplicate_of,
       m.kind, m.bone_count, m.fps, m.frame_start, m.frame_end, a.frame_count AS frame_count_60fps, a.track_count,
       a.key_count
FROM mset_slots s
JOIN files f ON f.id = s.file_id
JOIN dumps d ON d.id = f.dump_id
LEFT JOIN animations a ON a.id = s.animation_id
LEFT JOIN kh2_motions m ON m.animation_id = a.id
LEFT JOIN ref_motion_names n ON n.game = 'kh2' AND n.numbering = :numbering AND n.motion_id = s.motion_id
-- A model's BAR entries (Model, ModelTexture, Bdx) are no motions.
WHERE f.format IN ('kh2_mset', 'kh2_bar') AND (s.entry_type_name IN ('Anb', 'Motion', 'Motionset') OR s.animation_id IS NOT NULL)
  AND (:dummies = 1 OR s.is_dummy = 0)
  AND (:file IS NULL OR instr(f.path, :file) > 0)
  AND (:dump IS NULL OR d.label = :dump)
ORDER BY d.label, f.path, s.parent_slot IS NOT NULL, s.parent_slot, s.slot;
