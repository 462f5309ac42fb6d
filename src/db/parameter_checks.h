#pragma once
// A value that names something (a dump label, a character, a game, a file) is checked against the
// database before a named query runs: a typo is a usage error that says what exists, never an
// empty table with exit 0. The check goes by the parameter's name, the convention every named
// query follows (queries/README in the README's "Named queries" section).
#include <SQLiteCpp/Database.h>
#include <string>
#include <vector>

#include "db/query_catalog.h"

namespace animdex {

// Checks `parameters` (as bind_parameters made them) and returns them, with a character given in
// another case replaced by the one unique match (a note in `notes` says so). Throws
// QueryUsageError naming the parameter, the value and what the database holds.
Parameters check_parameter_values(SQLite::Database& db, const NamedQuery& query, Parameters parameters,
                                  std::vector<std::string>& notes);

// The same check for one dump label (reports and diff take --dump/--from/--to): throws
// QueryUsageError "no dump labelled 'X' in DB; its dumps: a, b" unless it exists.
// `drop` asks for this exact label (it deletes); the nearest labels are named in the error.
void require_dump_label(SQLite::Database& db, const std::string& label, const std::string& option = "-p dump");

// The label to use for `label`, by the parameters' case rule: as typed, else the one stored label
// equal to it ignoring ASCII case (a note says so); else the same QueryUsageError.
std::string checked_dump_label(SQLite::Database& db, const std::string& label, const std::string& option,
                               std::vector<std::string>& notes);

}  // namespace animdex
