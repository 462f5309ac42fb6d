#pragma once
// The `keyframes` and `key_splines` tables of an animdex database are virtual tables of the module
// `animdex_keys`: they read each track's key blob (`bone_tracks.keys`, db/key_blob.h), or, for a
// dump indexed with `--keyframes rows`, its rows in `keyframe_rows`/`key_spline_rows`. animdex
// registers the module on every connection it opens; the sqlite3 shell and DB Browser load it from
// the extension the build makes (`.load build/animdex_keys`, README "Keys in other tools").
struct sqlite3;

namespace animdex {

// Registers `animdex_keys` on every connection opened after the first call (sqlite3_auto_extension),
// in this process. Safe to call many times and from any thread.
void enable_key_tables();

}  // namespace animdex
