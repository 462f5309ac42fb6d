#include "formats/lightwave/lw_types.h"

namespace animdex::lightwave {

std::string channel_name(FileKind kind, int index) {
  static const char* const kNames[] = {"x", "y", "z", "heading", "pitch", "bank", "sx", "sy", "sz"};
  if (kind == FileKind::envelope) return index == 0 ? "value" : "value" + std::to_string(index);
  if (index >= 0 && index < 9) return kNames[index];
  return "channel" + std::to_string(index);
}

}  // namespace animdex::lightwave
