#pragma once
#include <iosfwd>

namespace animdex {

// The whole command line; main() only calls this. Output goes to `out`, messages to stderr.
int run_cli(int argc, const char* const* argv, std::ostream& out);

}  // namespace animdex
