#pragma once
#include <optional>
#include <string>
#include <vector>

#include "formats/lightwave/lw_types.h"

namespace animdex::lightwave {

// Why `file` cannot be written as its `version` (v1 needs every channel keyed at the same
// integral frames), or nullopt.
std::optional<std::string> validate_for_writing(const LwFile& file);

// LWMO/LWEN text (LF line ends, numbers in their shortest exact form). Precondition:
// validate_for_writing(file) is nullopt (throws std::invalid_argument if not).
std::string write_lw(const LwFile& file);

// The same curves as the other version: v1 -> v3 (frames become seconds at `fps`, degrees
// become radians) or v3 -> v1 (all channels must share key times that are whole frames at `fps`;
// shapes other than TCB and Linear cannot be expressed and make it fail).
std::optional<LwFile> convert_version(const LwFile& file, int version, double fps, std::string* why_not);

// Where one Kuper axis goes in the LightWave motion.
struct AxisMapping {
  std::string axis;
  int channel = 0;     // 0..8
  double scale = 1.0;  // -1 flips the polarity
};

// The mapping the seed document's example shows: the axes in header order to channels 0..n-1,
// with the polarity of VNS, VTilt and VRoll reversed.
std::vector<AxisMapping> default_kuper_mapping(const KuperFile& kuper);

// Kuper frames as an LWMO v1 motion, as the seed document converts them: a rest key at frame 0
// (position and rotation 0, scale 1), then Kuper line i at frame i + 1, T/C/B 0.
// Throws std::invalid_argument for a mapping naming an unknown axis or a channel outside 0..8.
LwFile kuper_to_motion(const KuperFile& kuper, const std::vector<AxisMapping>& mapping);

}  // namespace animdex::lightwave
