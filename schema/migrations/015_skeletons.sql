-- Migration to schema version 15: `model_nodes` holds the skeletons of KH2 models too, so it is
-- declared in schema.sql for every format; KH2 bones have no names (`name` may be NULL) and store
-- their rotation as Euler angles (`e_x`, `e_y`, `e_z`). SQLite cannot drop a NOT NULL: the table is
-- made again with its rows. A dump last indexed before v12 has no `model_nodes` yet: one is made
-- empty first. The KH2 tables (`kh2_models`, `kh2_model_links`, view `kh2_links`) come from
-- src/formats/kh2/kh2_tables.sql, which runs after this step; KH2 models indexed before are
-- `kh2_bar` files, and the new build id makes the next `index` read them again.
CREATE TABLE IF NOT EXISTS model_nodes (
  file_id INTEGER NOT NULL, model_index INTEGER NOT NULL, node_index INTEGER NOT NULL, name TEXT NOT NULL,
  parent INTEGER, visible INTEGER, flag INTEGER NOT NULL, t_x REAL NOT NULL, t_y REAL NOT NULL, t_z REAL NOT NULL,
  rotation TEXT NOT NULL, q_x REAL NOT NULL, q_y REAL NOT NULL, q_z REAL NOT NULL, q_w REAL NOT NULL,
  s_x REAL NOT NULL, s_y REAL NOT NULL, s_z REAL NOT NULL, PRIMARY KEY (file_id, model_index, node_index)) WITHOUT ROWID;
ALTER TABLE model_nodes RENAME TO model_nodes_v14;
CREATE TABLE model_nodes (
  file_id      INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  model_index  INTEGER NOT NULL,
  node_index   INTEGER NOT NULL,
  name         TEXT,
  parent       INTEGER,
  visible      INTEGER,
  flag         INTEGER NOT NULL,
  t_x          REAL NOT NULL,
  t_y          REAL NOT NULL,
  t_z          REAL NOT NULL,
  rotation     TEXT NOT NULL,
  q_x          REAL NOT NULL,
  q_y          REAL NOT NULL,
  q_z          REAL NOT NULL,
  q_w          REAL NOT NULL,
  s_x          REAL NOT NULL,
  s_y          REAL NOT NULL,
  s_z          REAL NOT NULL,
  e_x          REAL,
  e_y          REAL,
  e_z          REAL,
  PRIMARY KEY (file_id, model_index, node_index)
) WITHOUT ROWID;
INSERT INTO model_nodes (file_id, model_index, node_index, name, parent, visible, flag, t_x, t_y, t_z, rotation,
                         q_x, q_y, q_z, q_w, s_x, s_y, s_z)
SELECT file_id, model_index, node_index, name, parent, visible, flag, t_x, t_y, t_z, rotation, q_x, q_y, q_z, q_w,
       s_x, s_y, s_z FROM model_nodes_v14;
DROP TABLE model_nodes_v14;
