-- description: NSBCA animations node by node: the node's name from the linked model, where T, R and S come from (identity, base, const, animated) and how many samples each stores.
-- formats: nsbca
-- param: file text = NULL  Only files whose path contains this text (default: every file)
-- param: animation text = NULL  Only this animation name (default: every animation)
-- param: dump text = NULL  Only this dump label (default: every dump)
SELECT d.label AS dump, f.path AS file, a.name AS animation, a.frame_count, n.node_index AS node,
       (SELECT mn.name FROM nitro_model_links l
        JOIN model_nodes mn ON mn.file_id = l.model_file_id AND mn.model_index = l.model_index
                           AND mn.node_index = n.node_index
        WHERE l.animation_id = a.id) AS node_name,
       n.node_id, printf('0x%08X', n.tag) AS tag, n.t_state, n.r_state, n.s_state,
       COALESCE((SELECT t.key_count FROM bone_tracks t WHERE t.animation_id = a.id AND t.bone_id = n.node_index
                 AND t.channels = 'T'), 0) AS t_samples,
       COALESCE((SELECT t.key_count FROM bone_tracks t WHERE t.animation_id = a.id AND t.bone_id = n.node_index
                 AND t.channels = 'R'), 0) AS r_samples,
       COALESCE((SELECT t.key_count FROM bone_tracks t WHERE t.animation_id = a.id AND t.bone_id = n.node_index
                 AND t.channels = 'S'), 0) AS s_samples
FROM node_states n
JOIN animations a ON a.id = n.animation_id
JOIN files f ON f.id = a.file_id
JOIN dumps d ON d.id = f.dump_id
WHERE (:file IS NULL OR instr(f.path, :file) > 0)
  AND (:animation IS NULL OR a.name = :animation)
  AND (:dump IS NULL OR d.label = :dump)
ORDER BY d.label, f.path, a.id, n.node_index;
