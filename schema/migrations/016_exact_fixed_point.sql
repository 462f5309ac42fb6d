-- Migration to schema version 16: numbers a file holds exactly in a form wider than a float32's
-- shortest text (Nintendo DS 1/4096 fixed point) are stored as their exact value, as SQL then prints
-- them: a DS model node's `t_x` is -1033.616943359375, not the float32 text -1033.617. Before, the
-- float32 rule (core/number_text.h) had rounded them; `animdex_exact_of_stored` undoes that
-- rounding. Key blobs always held the exact value (the key tables now read it as it is); keys
-- stored as rows (`--keyframes rows`) and DS model nodes are rewritten here. LightWave's decimal
-- text is stored as it is from this version on too; a value stored before is left alone, as the
-- rounding cannot be told apart from the text there (the next `index` with a new build reads it again).
UPDATE model_nodes
   SET t_x = animdex_exact_of_stored(t_x), t_y = animdex_exact_of_stored(t_y), t_z = animdex_exact_of_stored(t_z),
       s_x = animdex_exact_of_stored(s_x), s_y = animdex_exact_of_stored(s_y), s_z = animdex_exact_of_stored(s_z)
 WHERE file_id IN (SELECT id FROM files WHERE format = 'nsbmd');
UPDATE keyframe_rows
   SET x = animdex_exact_of_stored(x), y = animdex_exact_of_stored(y), z = animdex_exact_of_stored(z),
       w = animdex_exact_of_stored(w)
 WHERE track_id IN (SELECT t.id FROM bone_tracks t JOIN animations a ON a.id = t.animation_id
                      JOIN files f ON f.id = a.file_id WHERE f.format LIKE 'nsb%' AND t.value_encoding <> 'rotation_index');
-- NSBCA rotations (`rotation_index`) are quaternions computed from the matrix and kept as float32s: unchanged.
-- `reuse_groups` leaves out animations without tracks (an empty NSBCA is not reuse): made again
-- from schema.sql after this step.
DROP VIEW IF EXISTS reuse_groups;
