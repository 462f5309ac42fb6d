#pragma once
// The one precision rule for numbers that leave the tool (SQL columns, every output format,
// `info`, `pose`, reports, `diff`): a value that a float32 holds exactly -- what GNT, KH2 and
// NSBCA files store -- is shown as the shortest decimal that reads back to that float32 (`1.35`,
// not `1.350000023841858`), and SQL holds the double nearest to that decimal, so `x = 1.35`
// compares as people expect. Any other double (LightWave's text, a fixed-point value wider than a
// float32, an SQL expression) is shown as the shortest decimal that reads back to itself.
// Computed values (a pose between keys, a difference) are shown with at most 9 significant digits,
// as many as a float32 ever needs: `as_computed`.
#include <string>

namespace animdex {

// `value` as SQL and the outputs hold it: a float32-exact value becomes the double nearest to the
// float32's shortest decimal; any other value (and a non-finite one) is returned unchanged.
// Idempotent: as_stored(as_stored(v)) == as_stored(v).
double as_stored(double value);

// The text of `value` under the rule: the shortest decimal that reads back to as_stored(value).
std::string number_text(double value);

// The shortest text that reads back to `value` itself, plain from 1e-7 to 1e21 (0.0005, 1859874),
// else in scientific notation (1.5e-08); what number_text and the JSON writer print.
std::string shortest_text(double value);

// A computed value as the outputs hold it: as_stored for a float32-exact value (a pose at a key's
// time gives the key's own text), else the double nearest to `value` written with 9 significant
// digits (relative error under 5e-9): `0.4285815`, never `0.42858150000000003`; -0 becomes 0.
double as_computed(double value);

}  // namespace animdex
