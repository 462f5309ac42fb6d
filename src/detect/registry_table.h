#pragma once
// Every kind of file animdex knows, as one table from the registries (formats, containers with
// their companions, codecs): what `animdex formats` prints, the schema page lists and the README's
// formats table is checked against. Generated, so adding a format or container edits no list.
#include "model/table.h"

namespace animdex {

// Columns id, kind (`animation`, `container`, `compression`), description; registry order.
ResultTable registered_kinds();

}  // namespace animdex
