-- description: Every KH2 (motion, state) whose own slot is a dummy or missing, and the slot the engine falls back to.
-- formats: kh2_mset, kh2_bar
-- param: file text = NULL  Only files whose path contains this text (default: every file)
-- param: dump text = NULL  Only this dump label (default: every dump)
-- param: numbering text = code  Motion-name numbering: code (OpenKh MotionSet.cs, default) or doc (dbg/motion.bin order)
-- param: resolved int = 0  1 to leave out motions that resolve to nothing (-1)
SELECT d.label AS dump, f.path AS file, r.parent_slot, r.motion_id, n.name AS motion_name, r.state,
       CASE r.state WHEN 0 THEN 'battle, weapon' WHEN 1 THEN 'battle, no weapon'
                    WHEN 2 THEN 'field, no weapon' WHEN 3 THEN 'field, weapon' END AS state_name,
       CASE WHEN r.state IS NULL THEN r.motion_id ELSE r.motion_id * 4 + r.state END AS own_slot,
       r.resolved_slot, target.entry_name AS resolved_entry
FROM mset_resolution r
JOIN files f ON f.id = r.file_id
JOIN dumps d ON d.id = f.dump_id
LEFT JOIN mset_slots target
  ON target.file_id = r.file_id AND target.parent_slot IS r.parent_slot AND target.slot = r.resolved_slot
LEFT JOIN ref_motion_names n ON n.game = 'kh2' AND n.numbering = :numbering AND n.motion_id = r.motion_id
WHERE r.resolved_slot IS NOT (CASE WHEN r.state IS NULL THEN r.motion_id ELSE r.motion_id * 4 + r.state END)
  AND (:resolved = 0 OR r.resolved_slot >= 0)
  AND (:file IS NULL OR instr(f.path, :file) > 0)
  AND (:dump IS NULL OR d.label = :dump)
ORDER BY d.label, f.path, r.parent_slot IS NOT NULL, r.parent_slot, r.motion_id, r.state;
