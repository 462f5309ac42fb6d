#pragma once
// The one precision rule for numbers that leave the tool (SQL columns, every output format,
// `info`, `pose`, reports, `diff`): a value that a float32 holds exactly -- what GNT, KH2 and
// NSBCA files store -- is shown as the shortest decimal that reads back to that float32 (`1.35`,
// not `1.350000023841858`), and SQL holds the double nearest to that decimal, so `x = 1.35`
// compares as people expect. Any other double (LightWave's text, a fixed-point value wider than a
// float32, an SQL expression) is shown as the shortest decimal that reads back to itself.
// Values a format computes from its keys (a pose, a baked sample) follow the kind of number the
// file stores: `shown_as` with a Precision. At a key's own time a format returns the key's value
// itself, so every precision gives the key's stored text there.
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

// What kind of number a value is, for `shown_as`:
//  - float32: computed from float32 data (GNT, KH2): the float32 nearest the value, then as_stored
//    (no more digits than a float32 holds: between keys `1.4062499` is `1.40625` only if that is
//    the nearest float32);
//  - exact: a number the file holds exactly in a wider form (DS fixed point k/4096, LightWave's
//    decimal text): the value itself, printed so that it reads back to the same double;
//  - fixed_point: DS data (1/4096 steps): a value on that grid exactly (`0.999755859375`, 4095/4096),
//    any other (a matrix cell the runtime computes with a square root) as computed;
//  - computed: arithmetic on several values (a world transform): as_computed.
enum class Precision { float32, exact, fixed_point, computed };

double shown_as(double value, Precision precision);

// The value that as_stored(x) was given, for a stored `x` of an exact kind written before schema
// v16 (DS fixed point was stored by the float32 rule): the float32 nearest `x` when as_stored of
// that float32 is `x`, else `x` itself.
double exact_of_stored(double stored);

}  // namespace animdex
