#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "db/key_tables.h"

// Connections the tests open themselves see the key tables as animdex's do.
static const bool key_tables_enabled = (animdex::enable_key_tables(), true);
