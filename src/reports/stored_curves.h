#pragma once
// An animation's curves from the keys the database stores (`keyframes`), for a file that can no
// longer be read again: lines join the keys, times are as the format stores them (GNT seconds;
// KH2, NSBCA and LightWave v1 frames), and there are no samples.
#include <SQLiteCpp/Database.h>
#include <cstdint>
#include <string>

#include "model/curves.h"

namespace animdex::reports {

// A channel per stored component of each track: `R.x` ... `R.w` for a track of several, the
// track's own channel name (`Rx`, `heading`) for a track of one; its node is the track's bone.
// `slot` is the animation's position as --slot gives it (its `animations.slot`), or empty.
AnimationCurves stored_curves(SQLite::Database& db, std::int64_t animation_id, const std::string& slot);

}  // namespace animdex::reports
