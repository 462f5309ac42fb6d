-- Migration to schema version 12: Nintendo DS models and the other Nitro animation kinds. The new
-- tables (`nitro_models`, `model_nodes`, `model_materials`, `nitro_model_links`, `pattern_names`)
-- and the view `nitro_links` come from src/formats/nitro/nitro_tables.sql, which runs after this
-- step. Dumps indexed before hold their `.nsbmd`, `.nsbta`, `.nsbtp`, `.nsbma` and `.nsbva` files
-- as `unknown`: a build with new formats has a new build id, so the next `index` of a dump reads
-- every file again.
SELECT 1;
