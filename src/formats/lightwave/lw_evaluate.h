#pragma once
// Evaluates LightWave envelopes with the SDK reference semantics written down in the format
// note ("Evaluating a v3 envelope"): TCB with LightWave's span-length rescaling, Hermite, 1D and
// 2D Bezier, linear, stepped, and the six pre/post behaviours (with the corrected repeat and
// oscillate for a first key not at time 0). Version 1 files are evaluated through the note's
// mapping (the parser already turned their keys into TCB or Linear keys, behaviours Constant).
#include <cstddef>

#include "formats/lightwave/lw_types.h"

namespace animdex::lightwave {

// The channel's value at `time` (in the file's unit: frames for v1, seconds for v3).
double evaluate(const Channel& channel, double time);

// Tangents as LightWave stores them in p4 (incoming) and p5 (outgoing): the value change across
// the span, rescaled by neighbouring span lengths. `key` must have a key before it (incoming)
// or after it (outgoing).
double incoming_tangent(const Channel& channel, std::size_t key);
double outgoing_tangent(const Channel& channel, std::size_t key);

}  // namespace animdex::lightwave
